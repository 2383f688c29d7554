/**
 * The pipelines benchmark: seeds 100,000 pipelines (three jobs each) on one project, then loads
 * each endpoint alone at a fixed rate through the gateway, authenticated, and prints achieved RPS,
 * p50/p90/p99 and success rate (the wrk driver is bench/issues/load.lua).
 * Usage: npx tsx bench/pipelines/run.ts
 * Env: DATABASE_URL (default the local Postgres), AMQP_URL (default the local RabbitMQ), BENCH_RATE (200),
 * BENCH_SECONDS (60), BENCH_PIPELINES (100000), BENCH_CONNECTIONS (64), BENCH_THREADS (2),
 * BENCH_ONLY (scenario names, comma-separated), BENCH_WARMUP (10 s), BENCH_SETTLE (10 s),
 * BENCH_SMOKE (1,000 pipelines, 50 req/s, one second per endpoint, no warm-up).
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

const LOAD_SCRIPT = path.join(__dirname, '..', 'issues', 'load.lua');

function wrk(url: string, token: string, file: string, rate: number, seconds: number, threads: number, connections: number): Promise<Result> {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-H', `PRIVATE-TOKEN: ${token}`, '-s', LOAD_SCRIPT, url];
  return new Promise((resolve, reject) => {
    const env = { ...process.env, BENCH_PATHS: file, BENCH_THREADS: String(threads), BENCH_RATE: String(rate) };
    const child = spawn('wrk', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 200));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 60));
  const count = Number(process.env.BENCH_PIPELINES ?? (smoke ? 1000 : 100_000));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 10));
  const only = process.env.BENCH_ONLY?.split(',');
  const run = `bench_pipelines_${Date.now().toString(36)}`;
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const fleet = await startFleet({ services: ['identity', 'pipelines'], databaseUrl, amqpUrl });
  try {
    const data = await seed(fleet, databaseUrl, count);
    await settle(databaseUrl, Number(process.env.BENCH_SETTLE ?? (smoke ? 0 : 10)));
    console.log(`\nrate ${rate}/s, ${seconds} s per endpoint, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    console.log('| endpoint | achieved RPS | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const s of scenarios(data)) {
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
