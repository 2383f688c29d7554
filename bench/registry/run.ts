/**
 * Registry throughput and latency: upload then download files of 1 KB, 1 MB, 100 MB and 1 GB through
 * the gateway (MB/s, peak RSS of gateway and registry), ping and authenticate latency at a fixed rate,
 * and the same against Conan's reference server when CONAN2_SRC names a conan-io/conan checkout.
 * Usage: npx tsx bench/registry/run.ts  (env: BENCH_SIZES, BENCH_RATE, BENCH_SECONDS, BENCH_TARGETS,
 * DATABASE_URL). `BENCH_SMOKE=1`: Anvil only, 1 KB × 50 and 1 MB × 10, one second at 200 req/s.
 */
import { cpus } from 'node:os';
import { ensureFile, SIZES, warmUpReps } from './files';
import { openLoop } from './open-loop';
import { getDiscard, putFile } from './raw-client';
import { mb, peakRss, resetPeak, runMain } from './proc';
import { startAnvil, startConanServer, type Target } from './targets';

const SMOKE = !!process.env.BENCH_SMOKE;
/** Repetitions per size in smoke mode. */
const SMOKE_REPS: Record<string, number> = { '1K': 50, '1M': 10, '100M': 1, '1G': 1 };

function peaks(t: Target): string {
  return Object.entries(t.pids).map(([k, pid]) => `${k} ${mb(peakRss(pid))} MB`).join(', ');
}

interface Row {
  label: string;
  reps: number;
  up: number;
  down: number;
  upOps: number;
  downOps: number;
  rss: string;
}

async function throughput(t: Target, label: string, size: number, reps: number): Promise<Row> {
  const file = await ensureFile(label, size);
  for (let i = 0; i < warmUpReps(size, reps); i++) {
    await putFile(t.fileUrl, file, t.headers);
    await getDiscard(t.fileUrl, t.headers);
  }
  for (const pid of Object.values(t.pids)) resetPeak(pid);
  let start = performance.now();
  for (let i = 0; i < reps; i++) {
    const s = await putFile(t.fileUrl, file, t.headers);
    if (s !== 200 && s !== 201) throw new Error(`${t.name}: upload answered ${s}`);
  }
  const up = (size * reps) / 1e6 / ((performance.now() - start) / 1000);
  start = performance.now();
  for (let i = 0; i < reps; i++) {
    const r = await getDiscard(t.fileUrl, t.headers);
    if (r.status !== 200 || r.bytes !== size) throw new Error(`${t.name}: download answered ${r.status} with ${r.bytes} bytes`);
  }
  const down = (size * reps) / 1e6 / ((performance.now() - start) / 1000);
  return { label, reps, up, down, upOps: (up * 1e6) / size, downOps: (down * 1e6) / size, rss: peaks(t) };
}

/** One target's table rows: throughput per size, then (when `rate` > 0) latency per endpoint. */
async function bench(t: Target, sizes: string[], rate: number, seconds: number): Promise<{ transfers: string[]; latency: string[] }> {
  // Largest first, so each size's peak RSS is not inflated by the heap the smaller runs grew.
  const rows: Row[] = [];
  for (const s of [...sizes].sort((a, b) => SIZES[b][0] - SIZES[a][0])) rows.push(await throughput(t, s, SIZES[s][0], SMOKE ? SMOKE_REPS[s] : SIZES[s][1]));
  const transfers = rows.reverse().map((r) => `| ${t.name} | ${r.label} | ${r.reps} | ${r.up.toFixed(1)} | ${r.down.toFixed(1)} | ${r.upOps.toFixed(1)} | ${r.downOps.toFixed(1)} | ${r.rss} |`);
  const latency: string[] = [];
  if (rate > 0) {
    for (const [name, url, headers] of [['ping', t.pingUrl, {}], ['authenticate', t.authUrl, t.authHeaders]] as const) {
      // Warm-up to steady state (JIT-compiled paths, grown pools), discarded: a second each at a
      // quarter, half and the full rate. The reference server takes the same warm-up.
      if (!SMOKE) for (const share of [0.25, 0.5, 1]) await openLoop(url, headers, Math.max(1, Math.round(rate * share)), 1);
      const r = await openLoop(url, headers, rate, seconds);
      latency.push(`| ${t.name} | ${name} | ${rate}/s | ${r.achieved}/s | ${r.errors} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} |`);
    }
  }
  return { transfers, latency };
}

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_SIZES ?? (SMOKE ? '1K,1M' : '1K,1M,100M,1G')).split(',').filter((s) => SIZES[s]);
  const rate = Number(process.env.BENCH_RATE ?? (SMOKE ? 200 : 5000));
  const seconds = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 5));
  const targets = (process.env.BENCH_TARGETS ?? 'anvil,conan4,conan1').split(',');
  const src = process.env.CONAN2_SRC;
  const starters: Record<string, { name: string; start: () => Promise<Target> }> = {
    anvil: { name: 'anvil (gateway → registry)', start: startAnvil },
    conan4: { name: 'conan_server (gunicorn -w 4)', start: () => startConanServer(src!, 4) },
    conan1: { name: 'conan_server (single-threaded)', start: () => startConanServer(src!, 0) },
  };
  const transfers: string[] = [];
  const latency: string[] = [];
  for (const name of targets) {
    const starter = starters[name];
    if (!starter) throw new Error(`unknown target ${name} (anvil, conan4, conan1)`);
    if (name !== 'anvil' && (SMOKE || !src)) {
      const why = SMOKE ? 'smoke mode' : 'set CONAN2_SRC to a conan-io/conan 2.x checkout';
      transfers.push(`| ${starter.name} | peer: not run (${why}) | | | | | | |`);
      continue;
    }
    const t = await starter.start();
    try {
      const rows = await bench(t, sizes, rate, seconds);
      transfers.push(...rows.transfers);
      latency.push(...rows.latency);
    } finally {
      await t.stop();
    }
  }
  printTables(transfers, latency);
}

/** The run's two tables: transfers per target and size, then latency per target and endpoint. */
function printTables(transfers: string[], latency: string[]): void {
  console.log(`${new Date().toISOString()}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})`);
  console.log('| target | size | reps | upload MB/s | download MB/s | uploads/s | downloads/s | peak RSS |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of transfers) console.log(r);
  if (latency.length) {
    console.log('\n| target | endpoint | rate asked | achieved | errors | p50 ms | p90 ms | p99 ms | max ms |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of latency) console.log(r);
  }
}

runMain(main);
