/**
 * The alerting benchmark: alerts posted to an HTTP integration's notify URL through the gateway at a
 * fixed rate with wrk, once with a new fingerprint per request (every request opens an alert) and
 * once repeating ten fingerprints (every request counts an event), printing achieved rate,
 * p50/p90/p99 and success.
 * Usage: npx tsx bench/alerting/run.ts
 * Env: DATABASE_URL (default the local Postgres), AMQP_URL (default the local RabbitMQ), BENCH_RATE
 * (2000), BENCH_SECONDS (30), BENCH_WARMUP (5), BENCH_THREADS (2), BENCH_CONNECTIONS (64),
 * BENCH_SMOKE (50 req/s, one second per scenario, no warm-up).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';

interface Result { requests: number; ok: number; failed: number; socket_errors: number; seconds: number; rps: number; p50: number; p90: number; p99: number; max: number }

function wrk(url: string, env: Record<string, string>, seconds: number, threads: number, connections: number): Promise<Result> {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', path.join(__dirname, 'load.lua'), url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, ...env, BENCH_THREADS: String(threads) }, stdio: ['ignore', 'pipe', 'pipe'] });
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

async function api(fleet: Fleet, method: string, p: string, body: unknown): Promise<any> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, { method, headers: { 'PRIVATE-TOKEN': fleet.adminToken, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function main(): Promise<void> {
  const smoke = !!process.env.BENCH_SMOKE;
  const rate = Number(process.env.BENCH_RATE ?? (smoke ? 50 : 2000));
  const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 30));
  const warmup = Number(process.env.BENCH_WARMUP ?? (smoke ? 0 : 5));
  const threads = Number(process.env.BENCH_THREADS ?? (smoke ? 1 : 2));
  const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 64));
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const fleet = await startFleet({ services: ['identity', 'alerting'], databaseUrl, amqpUrl });
  try {
    const project = await api(fleet, 'POST', '/projects', { name: 'Bench', path: 'bench', visibility: 'private' });
    const integration = await api(fleet, 'POST', `/projects/${project.id}/alert_management/http_integrations`, { name: 'Bench' });
    console.log(`\nrate ${rate}/s, ${seconds} s per scenario, wrk ${threads} threads × ${connections} connections, ${new Date().toISOString()}`);
    console.log('| scenario | achieved alerts/s | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const mode of ['new', 'repeat'] as const) {
      const env = { BENCH_RATE: String(rate), BENCH_MODE: mode, BENCH_KEY: integration.token, BENCH_RUN: `${mode}${Date.now().toString(36)}` };
      if (warmup > 0) await wrk(integration.url, { ...env, BENCH_RUN: `w${env.BENCH_RUN}` }, warmup, threads, connections);
      const r = await wrk(integration.url, env, seconds, threads, connections);
      const success = r.requests ? (100 * r.ok) / r.requests : 0;
      const title = mode === 'new' ? 'new fingerprint per request' : 'repeats of 10 fingerprints';
      console.log(`| ${title} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${success.toFixed(2)}% | ${loadavg()[0].toFixed(2)} |`);
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
