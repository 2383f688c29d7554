/**
 * The identity list benchmark (GitLab Performance Tool style): seeds 100,000 users and 10,000
 * groups, then loads `GET /users` and `GET /groups` (lists, then searches) each alone at a fixed rate through the gateway,
 * authenticated as a regular user, and prints achieved RPS, p50/p90/p99 and success rate.
 * Usage: npx tsx bench/identity/lists.ts
 * Env: DATABASE_URL (default the local Postgres), BENCH_RATE (200), BENCH_SECONDS (60),
 * BENCH_USERS (100000), BENCH_GROUPS (10000), BENCH_CONNECTIONS (64), BENCH_THREADS (2),
 * BENCH_WARMUP (10 s of the same load first), BENCH_ONLY (scenario names, comma-separated),
 * BENCH_SMOKE (1,000 users, 100 groups, 50 req/s, one second per endpoint, no warm-up).
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startFleet } from '@anvil/testing';
import { seedLists } from './lists-seed';

interface Result { requests: number; ok: number; failed: number; socket_errors: number; seconds: number; rps: number; p50: number; p90: number; p99: number; max: number }

/** The scenarios: each endpoint's paths (relative to /api/v4), cycled through by wrk; searches apart. */
const SCENARIOS = [
  { name: 'users', title: 'GET /users', paths: ['/users', '/users?page=2', '/users?active=true&per_page=50'] },
  { name: 'users-search', title: 'GET /users?search=', paths: ['/users?search=bench%20user%204', '/users?search=bu77'] },
  { name: 'groups', title: 'GET /groups', paths: ['/groups', '/groups?page=2', '/groups?all_available=true', '/groups?all_available=true&order_by=id&page=3'] },
  { name: 'groups-search', title: 'GET /groups?search=', paths: ['/groups?all_available=true&search=bench%20group%204', '/groups?search=bg7'] },
];

/** wrk at a fixed rate with bench/issues' schedule (load.lua); resolves with its JSON summary. */
function wrk(url: string, token: string, file: string, rate: number, seconds: number, threads: number, connections: number): Promise<Result> {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-H', `PRIVATE-TOKEN: ${token}`, '-s', path.join(__dirname, '..', 'issues', 'load.lua'), url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, BENCH_RATE: String(rate), BENCH_PATHS: file, BENCH_THREADS: String(threads) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (${code}):\n${out}`));
      resolve(JSON.parse(line) as Result);
    });
  });
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 200));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 60));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 10));
  const only = process.env.BENCH_ONLY?.split(',');
  const run = `bench_identity_lists_${Date.now().toString(36)}`;
  const fleet = await startFleet({ services: ['identity'], databaseUrl });
  try {
    const data = await seedLists(fleet, databaseUrl, Number(process.env.BENCH_USERS ?? (smoke ? 1000 : 100_000)), Number(process.env.BENCH_GROUPS ?? (smoke ? 100 : 10_000)));
    console.log(`\n${data.counts.users} users, ${data.counts.groups} groups; rate ${rate}/s, ${seconds} s per endpoint, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    console.log('| endpoint | achieved RPS | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const s of SCENARIOS) {
      if (only && !only.includes(s.name)) continue;
      const file = path.join(tmpdir(), `${run}-${s.name}.txt`);
      writeFileSync(file, s.paths.map((p) => `/api/v4${p}`).join('\n'));
      if (warmup > 0) await wrk(fleet.url, data.token, file, rate, warmup, threads, connections);
      const r = await wrk(fleet.url, data.token, file, rate, seconds, threads, connections);
      rmSync(file, { force: true });
      const success = r.requests ? (100 * r.ok) / r.requests : 0;
      console.log(`| ${s.title} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${success.toFixed(2)}% | ${loadavg()[0].toFixed(2)} |`);
    }
  } finally {
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
