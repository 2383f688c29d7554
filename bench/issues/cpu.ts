/**
 * CPU per request, per path, of a held benchmark fleet (`BENCH_HOLD=1 npx tsx bench/issues/run.ts`
 * prints it as JSON): each path alone at a fixed rate, and the CPU milliseconds each request cost the
 * gateway, work-items, identity and work-items' Postgres backends (from /proc: steady under other load).
 * Usage: npx tsx bench/issues/cpu.ts '<the held fleet JSON>' [path ...]
 * Without paths: the group and instance lists with each of scenarios.ts's filters.
 * Env: DATABASE_URL, BENCH_RATE (100), BENCH_SECONDS (15), BENCH_CONNECTIONS (16), BENCH_THREADS (2).
 */
import { createDb } from '@anvil/db';
import { loadPaths } from '../support/fixed-rate';
import { backendPidsOf, cpuSecondsOf } from '../identity/process-cpu';
import { FILTERS } from './scenarios';

interface Held { url: string; token: string; groupId: number; projectIds: number[]; pids: Record<string, number>; usernames?: string[] }

async function main(): Promise<void> {
  const held = JSON.parse(process.argv[2]) as Held;
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const load = { rate: Number(process.env.BENCH_RATE ?? 100), seconds: Number(process.env.BENCH_SECONDS ?? 15), warmup: 0, threads: Number(process.env.BENCH_THREADS ?? 2), connections: Number(process.env.BENCH_CONNECTIONS ?? 16) };
  const filters = FILTERS(held.usernames?.[2] ?? 'bench-u2');
  const paths = process.argv.length > 3 ? process.argv.slice(3) : [
    `/groups/${held.groupId}/issues`, ...filters.map((f) => `/groups/${held.groupId}/issues?${f}`),
    '/issues?scope=all', ...filters.map((f) => `/issues?scope=all&${f}`),
  ];
  const pg = createDb({ url: databaseUrl, schema: 'public', role: false, pool: { min: 0, max: 1 } });
  const names = ['gateway', 'work-items', 'identity'];
  console.log(`rate ${load.rate}/s, ${load.seconds} s per path, ${new Date().toISOString()}`);
  console.log(`| path | req/s | p90 ms | ${names.join(' | ')} | Postgres | total ms per request |`);
  console.log(`|---|---|---|${names.map(() => '---|').join('')}---|---|`);
  try {
    for (const p of paths) {
      await loadPaths(held.url, held.token, [p], { ...load, seconds: 3 });
      const backends = await backendPidsOf(held.pids['work-items'], Number(new URL(databaseUrl).port || 5432), async (sql) => (await pg.raw(sql)).rows);
      // a backend gone meanwhile (the pool closed it) counts nothing rather than its whole past
      const startOf = new Map(backends.map((pid) => [pid, cpuSecondsOf(pid)]));
      const pgUsed = () => backends.reduce((n, pid) => n + Math.max(0, cpuSecondsOf(pid) - (startOf.get(pid) ?? 0)), 0);
      const nodes = () => names.map((n) => cpuSecondsOf(held.pids[n]));
      const before = nodes();
      const r = await loadPaths(held.url, held.token, [p], load);
      const ms = [...nodes().map((v, i) => v - before[i]), pgUsed()].map((v) => (r.requests ? (1000 * v) / r.requests : 0));
      console.log(`| ${p} | ${r.rps.toFixed(0)} | ${r.p90.toFixed(1)} | ${ms.map((v) => v.toFixed(2)).join(' | ')} | ${ms.reduce((a, b) => a + b, 0).toFixed(2)} |`);
    }
  } finally {
    await pg.destroy();
  }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
