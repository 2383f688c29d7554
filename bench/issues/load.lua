-- Fixed-rate load for wrk: every thread walks its share of the schedule (BENCH_RATE requests per
-- second in total, evenly spaced) and cycles through the paths listed (one per line) in the file
-- named by BENCH_PATHS. Latency is wrk's (request written -> response read); a request that falls
-- behind schedule is sent at once, so overload shows as a lower achieved rate. Prints one JSON line.
local ffi = require("ffi")
ffi.cdef[[
  typedef struct { long tv_sec; long tv_usec; } bench_timeval;
  int gettimeofday(bench_timeval *tv, void *tz);
]]
local tv = ffi.new("bench_timeval")
local function now_ms()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) * 1000 + tonumber(tv.tv_usec) / 1000
end

local threads = {}
local paths = {}
for line in io.lines(os.getenv("BENCH_PATHS")) do
  if line ~= "" then paths[#paths + 1] = line end
end

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  ok, failed, statuses, cursor = 0, 0, {}, id or 0
  local rate = tonumber(os.getenv("BENCH_RATE"))
  local nthreads = tonumber(os.getenv("BENCH_THREADS"))
  interval = 1000 * nthreads / rate
  next_at = now_ms() + (id or 0) * interval / nthreads
end

function delay()
  local t = next_at
  next_at = next_at + interval
  local wait = t - now_ms()
  if wait < 0 then return 0 end
  return wait
end

function request()
  cursor = cursor + 1
  return wrk.format("GET", paths[(cursor % #paths) + 1])
end

function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else
    failed = failed + 1
    statuses[status] = (statuses[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local good, bad = 0, 0
  for _, t in ipairs(threads) do
    good = good + t:get("ok")
    bad = bad + t:get("failed")
  end
  local secs = summary.duration / 1e6
  io.write(string.format('{"requests":%d,"ok":%d,"failed":%d,"socket_errors":%d,"seconds":%.2f,"rps":%.1f,"p50":%.2f,"p90":%.2f,"p99":%.2f,"max":%.2f}\n',
    summary.requests, good, bad, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    secs, summary.requests / secs, latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
