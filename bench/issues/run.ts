/**
 * The issues benchmark (GitLab Performance Tool style): seeds 10 projects × 100k issues in one
 * group, then loads each endpoint alone at a fixed rate through the gateway, authenticated,
 * and prints achieved RPS, p50/p90/p99 and success rate.
 * Usage: npx tsx bench/issues/run.ts
 * Env: DATABASE_URL (default the local Postgres), BENCH_RATE (1000), BENCH_SECONDS (60),
 * BENCH_ISSUES (100000 per project), BENCH_NOTES (notes on each of the first project's first 1,000 issues, 1000), BENCH_CONNECTIONS (64), BENCH_THREADS (2), BENCH_ONLY (scenario names, comma-separated),
 * BENCH_WARMUP (10 s of the same load before each measurement), BENCH_SETTLE (15 s idle after seeding and CHECKPOINT),
 * BENCH_HOLD (seed, print the fleet as JSON, and wait for SIGINT: for profiling), AMQP_URL (default the
 * local RabbitMQ: identity's events must reach work-items), BENCH_SMOKE (2 projects × 100 issues, 50 req/s,
 * 10 issues × 50 notes, one second per endpoint, no warm-up).
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createDb } from '@anvil/db';
import { startFleet } from '@anvil/testing';
import { scenarios } from './scenarios';
import { seed } from './seed';

interface Result { requests: number; ok: number; failed: number; socket_errors: number; seconds: number; rps: number; p50: number; p90: number; p99: number; max: number }

function wrk(url: string, token: string, file: string, env: Record<string, string>, seconds: number, threads: number, connections: number): Promise<Result> {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-H', `PRIVATE-TOKEN: ${token}`, '-s', path.join(__dirname, 'load.lua'), url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, ...env, BENCH_PATHS: file, BENCH_THREADS: String(threads) }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Flushes the bulk load to disk (CHECKPOINT) and waits, so the first endpoint does not pay for it. */
async function settle(databaseUrl: string, seconds: number): Promise<void> {
  const admin = createDb({ url: databaseUrl, schema: 'public', role: false, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('CHECKPOINT');
  } finally {
    await admin.destroy();
  }
  await new Promise((r) => setTimeout(r, seconds * 1000));
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 1000));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 60));
  const perProject = Number(process.env.BENCH_ISSUES ?? (smoke ? 100 : 100_000));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 10));
  const only = process.env.BENCH_ONLY?.split(',');
  const run = `bench_issues_${Date.now().toString(36)}`;
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  if (!amqpUrl.startsWith('amqp')) throw new Error(`AMQP_URL=${amqpUrl}: the issues benchmark needs RabbitMQ (identity's events fill work-items' read models)`);
  const fleet = await startFleet({ services: ['identity', 'work-items'], databaseUrl, amqpUrl });
  try {
    const notes = { issues: smoke ? 10 : 1000, perIssue: Number(process.env.BENCH_NOTES ?? (smoke ? 50 : 1000)) };
    const data = await seed(fleet, databaseUrl, perProject, smoke ? 2 : 10, notes);
    await settle(databaseUrl, Number(process.env.BENCH_SETTLE ?? (smoke ? 0 : 15)));
    if (process.env.BENCH_HOLD) {
      const pids = Object.fromEntries([['gateway', fleet.gateway.process.pid], ...Object.entries(fleet.services).map(([n, p]) => [n, p.process.pid])]);
      console.log(JSON.stringify({ url: fleet.url, token: data.token, groupId: data.groupId, projectIds: data.projectIds, pids, schemas: fleet.schemas }));
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      return;
    }
    console.log(`\nrate ${rate}/s, ${seconds} s per endpoint, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    console.log('| endpoint | achieved RPS | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const s of scenarios(data)) {
      if (only && !only.includes(s.name)) continue;
      const file = path.join(tmpdir(), `${run}-${s.name}.txt`);
      writeFileSync(file, s.paths.map((p) => `/api/v4${p}`).join('\n'));
      if (warmup > 0) await wrk(fleet.url, data.token, file, { BENCH_RATE: String(rate) }, warmup, threads, connections);
      const r = await wrk(fleet.url, data.token, file, { BENCH_RATE: String(rate) }, seconds, threads, connections);
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
