/**
 * Registry throughput and latency: upload then download files of 1 KB, 1 MB, 100 MB and 1 GB through
 * the gateway (MB/s, peak RSS of gateway and registry), ping and authenticate latency at a fixed rate,
 * and the same against Conan's reference server when CONAN2_SRC names a conan-io/conan checkout.
 * Usage: npx tsx bench/registry/run.ts  (env: BENCH_SIZES, BENCH_RATE, BENCH_SECONDS, BENCH_TARGETS)
 */
import { ensureFile, SIZES, warmUpReps } from './files';
import { openLoop } from './open-loop';
import { getDiscard, putFile } from './raw-client';
import { mb, peakRss, resetPeak, runMain } from './proc';
import { startAnvil, startConanServer, type Target } from './targets';

function peaks(t: Target): string {
  return Object.entries(t.pids).map(([k, pid]) => `${k} ${mb(peakRss(pid))} MB`).join(', ');
}

async function throughput(t: Target, label: string, size: number, reps: number) {
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

async function bench(t: Target, sizes: string[], rate: number, seconds: number): Promise<void> {
  console.log(`\n## ${t.name}`);
  console.log('| size | reps | upload MB/s | download MB/s | uploads/s | downloads/s | peak RSS |');
  console.log('|---|---|---|---|---|---|---|');
  // Largest first, so each size's peak RSS is not inflated by the heap the smaller runs grew.
  const rows = [];
  for (const s of [...sizes].sort((a, b) => SIZES[b][0] - SIZES[a][0])) rows.push(await throughput(t, s, SIZES[s][0], SIZES[s][1]));
  for (const r of rows.reverse()) {
    console.log(`| ${r.label} | ${r.reps} | ${r.up.toFixed(1)} | ${r.down.toFixed(1)} | ${r.upOps.toFixed(1)} | ${r.downOps.toFixed(1)} | ${r.rss} |`);
  }
  if (rate > 0) {
    console.log(`\n| endpoint | rate asked | achieved | errors | p50 ms | p90 ms | p99 ms | max ms |`);
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [name, url, headers] of [['ping', t.pingUrl, {}], ['authenticate', t.authUrl, t.authHeaders]] as const) {
      // Warm-up to steady state (JIT-compiled paths, grown pools), discarded: a second each at a
      // quarter, half and the full rate. The reference server takes the same warm-up.
      for (const share of [0.25, 0.5, 1]) await openLoop(url, headers, Math.max(1, Math.round(rate * share)), 1);
      const r = await openLoop(url, headers, rate, seconds);
      console.log(`| ${name} | ${rate}/s | ${r.achieved}/s | ${r.errors} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} |`);
    }
  }
}

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_SIZES ?? '1K,1M,100M,1G').split(',').filter((s) => SIZES[s]);
  const rate = Number(process.env.BENCH_RATE ?? 5000);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const targets = (process.env.BENCH_TARGETS ?? 'anvil,conan4,conan1').split(',');
  const src = process.env.CONAN2_SRC;
  const starters: Record<string, () => Promise<Target>> = {
    anvil: startAnvil,
    conan4: () => startConanServer(src!, 4),
    conan1: () => startConanServer(src!, 0),
  };
  for (const name of targets) {
    if (name !== 'anvil' && !src) {
      console.log(`\n(${name} skipped: set CONAN2_SRC to a conan-io/conan 2.x checkout)`);
      continue;
    }
    const t = await starters[name]();
    try {
      await bench(t, sizes, rate, seconds);
    } finally {
      await t.stop();
    }
  }
}

runMain(main);
