/**
 * The identity list benchmark (GitLab Performance Tool style): seeds 100,000 users and 10,000
 * groups, then loads `GET /users` and `GET /groups` (lists, then searches) each alone at a fixed rate through the gateway,
 * authenticated as a regular user, and prints achieved RPS, p50/p90/p99 and success rate.
 * Usage: npx tsx bench/identity/lists.ts
 * Env: DATABASE_URL (default the local Postgres), BENCH_RATE (200), BENCH_SECONDS (60),
 * BENCH_USERS (100000), BENCH_GROUPS (10000), BENCH_CONNECTIONS (64), BENCH_THREADS (2),
 * BENCH_WARMUP (10 s of the same load first), BENCH_ONLY (scenario names, comma-separated),
 * BENCH_SMOKE (1,000 users, 100 groups, 50 req/s, one second per endpoint, no warm-up).
 * After the table, the CPU milliseconds each request cost the gateway, identity and identity's
 * Postgres backends in the measured runs (from /proc: steady under other load).
 */
import { createDb } from '@anvil/db';
import { startFleet } from '@anvil/testing';
import { printRow, printTableHeader, loadPaths, WrkResult } from '../support/fixed-rate';
import { seedLists } from './lists-seed';
import { backendPidsOf, cpuSecondsOf } from './process-cpu';

/** The scenarios: each endpoint's paths (relative to /api/v4), cycled through by wrk; searches apart. */
const SCENARIOS = [
  { name: 'users', title: 'GET /users', paths: ['/users', '/users?page=2', '/users?active=true&per_page=50'] },
  { name: 'users-search', title: 'GET /users?search=', paths: ['/users?search=bench%20user%204', '/users?search=bu77'] },
  { name: 'groups', title: 'GET /groups', paths: ['/groups', '/groups?page=2', '/groups?all_available=true', '/groups?all_available=true&order_by=id&page=3'] },
  { name: 'groups-search', title: 'GET /groups?search=', paths: ['/groups?all_available=true&search=bench%20group%204', '/groups?search=bg7'] },
];

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 200));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 60));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 10));
  const only = process.env.BENCH_ONLY?.split(',');
  const fleet = await startFleet({ services: ['identity'], databaseUrl });
  const pg = createDb({ url: databaseUrl, schema: 'public', role: false, pool: { min: 0, max: 1 } });
  try {
    const data = await seedLists(fleet, databaseUrl, Number(process.env.BENCH_USERS ?? (smoke ? 1000 : 100_000)), Number(process.env.BENCH_GROUPS ?? (smoke ? 100 : 10_000)));
    console.log(`\n${data.counts.users} users, ${data.counts.groups} groups; rate ${rate}/s, ${seconds} s per endpoint, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    printTableHeader('endpoint', 'achieved RPS');
    const cpuRows: string[] = [];
    const pids = { gateway: fleet.gateway.process.pid!, identity: fleet.services.identity.process.pid! };
    const pgPort = Number(new URL(databaseUrl).port || 5432);
    for (const s of SCENARIOS) {
      if (only && !only.includes(s.name)) continue;
      const load = { rate, seconds, warmup: 0, threads, connections };
      if (warmup > 0) await loadPaths(fleet.url, data.token, s.paths, { ...load, seconds: warmup });
      const backends = await backendPidsOf(pids.identity, pgPort, async (sql) => (await pg.raw(sql)).rows);
      // a backend the pool closed meanwhile counts nothing rather than minus its whole past
      const startOf = new Map(backends.map((pid) => [pid, cpuSecondsOf(pid)]));
      const cpu = () => [cpuSecondsOf(pids.gateway), cpuSecondsOf(pids.identity)];
      const before = cpu();
      const r: WrkResult = await loadPaths(fleet.url, data.token, s.paths, load);
      const used = [...cpu().map((v, i) => v - before[i]), backends.reduce((n, pid) => n + Math.max(0, cpuSecondsOf(pid) - (startOf.get(pid) ?? 0)), 0)];
      printRow(s.title, r);
      const perRequest = used.map((v) => (r.requests ? (1000 * v) / r.requests : 0).toFixed(2));
      cpuRows.push(`| ${s.title} | ${r.requests} | ${perRequest.join(' | ')} | ${backends.length} |`);
    }
    console.log('\n| endpoint | requests | gateway CPU ms/req | identity CPU ms/req | Postgres CPU ms/req | backends |');
    console.log('|---|---|---|---|---|---|');
    for (const row of cpuRows) console.log(row);
  } finally {
    await pg.destroy();
    await fleet.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
