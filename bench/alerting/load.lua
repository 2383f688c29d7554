-- Fixed-rate notify load for wrk: every thread walks its share of the schedule (BENCH_RATE requests
-- per second in total, evenly spaced) and POSTs a native alert payload with the integration key.
-- BENCH_MODE=new gives every request a fingerprint of its own (each one opens an alert);
-- BENCH_MODE=repeat cycles through BENCH_FINGERPRINTS fingerprints (each request counts an event on
-- an open alert). A request that falls behind schedule is sent at once, so overload shows as a lower
-- achieved rate; latencies are measured from the send, so they are the latencies at the achieved
-- rate. Prints one JSON line.
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

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  ok, failed, cursor = 0, 0, 0
  local rate = tonumber(os.getenv("BENCH_RATE"))
  local nthreads = tonumber(os.getenv("BENCH_THREADS"))
  mode = os.getenv("BENCH_MODE")
  fingerprints = tonumber(os.getenv("BENCH_FINGERPRINTS") or "10")
  run = os.getenv("BENCH_RUN")
  key = os.getenv("BENCH_KEY")
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
  local fp
  if mode == "new" then fp = run .. "-" .. (id or 0) .. "-" .. cursor else fp = run .. "-r" .. (cursor % fingerprints) end
  local body = '{"title":"Bench alert","severity":"high","service":"bench","hosts":["h1"],"fingerprint":"' .. fp .. '"}'
  return wrk.format("POST", nil, { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" }, body)
end

-- Accepted: 200 with the alert in the answer (`[{"iid":…`), nothing else.
function response(status, headers, body)
  if status == 200 and body:sub(1, 8) == '[{"iid":' then ok = ok + 1 else failed = failed + 1 end
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
