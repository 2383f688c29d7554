/**
 * Fixed-rate load with wrk, shared by the benchmarks that measure endpoints GPT-style: run a Lua
 * schedule (bench/issues/load.lua cycles through a file of paths), read its one JSON summary line,
 * print a row of the figures table.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createDb } from '@anvil/db';

/** The summary line the fixed-rate Lua scripts print. */
export interface WrkResult { requests: number; ok: number; failed: number; socket_errors: number; seconds: number; rps: number; p50: number; p90: number; p99: number; max: number }

/** How hard and how long to load. */
export interface Load { rate: number; seconds: number; warmup: number; threads: number; connections: number }

/** The schedule that cycles through the paths listed in `BENCH_PATHS`, `BENCH_RATE` requests a second in all. */
export const PATHS_SCRIPT = path.join(__dirname, '..', 'issues', 'load.lua');

/** Runs wrk for `seconds` with a Lua script (its variables in `env`); resolves with the script's summary. */
export function runWrk(url: string, script: string, seconds: number, load: Load, env: Record<string, string>, headers: string[] = []): Promise<WrkResult> {
  const args = ['-t', String(load.threads), '-c', String(load.connections), '-d', `${seconds}s`, '--timeout', '10s', ...headers.flatMap((h) => ['-H', h]), '-s', script, url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, BENCH_RATE: String(load.rate), BENCH_THREADS: String(load.threads), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (${code}):\n${out}`));
      resolve(JSON.parse(line) as WrkResult);
    });
  });
}

/** Loads `paths` (relative to /api/v4) with a personal access token: the warm-up, then the measured run. */
export async function loadPaths(url: string, token: string, paths: string[], load: Load): Promise<WrkResult> {
  const file = path.join(tmpdir(), `bench-paths-${process.pid}-${Date.now().toString(36)}.txt`);
  writeFileSync(file, paths.map((p) => `/api/v4${p}`).join('\n'));
  try {
    const headers = [`PRIVATE-TOKEN: ${token}`];
    if (load.warmup > 0) await runWrk(url, PATHS_SCRIPT, load.warmup, load, { BENCH_PATHS: file }, headers);
    return await runWrk(url, PATHS_SCRIPT, load.seconds, load, { BENCH_PATHS: file }, headers);
  } finally {
    rmSync(file, { force: true });
  }
}

/** Flushes a bulk load to disk (CHECKPOINT) and waits, so the first endpoint does not pay for it. */
export async function settle(databaseUrl: string, seconds: number): Promise<void> {
  const admin = createDb({ url: databaseUrl, schema: 'public', role: false, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('CHECKPOINT');
  } finally {
    await admin.destroy();
  }
  await new Promise((r) => setTimeout(r, seconds * 1000));
}

/** Prints the figures table's header: the first column's name, then rate, latencies, success and load. */
export function printTableHeader(first: string, rate: string): void {
  console.log(`| ${first} | ${rate} | p50 ms | p90 ms | p99 ms | success | load avg (1 min) |`);
  console.log('|---|---|---|---|---|---|---|');
}

/** Prints one row of the figures table. */
export function printRow(title: string, r: WrkResult): void {
  const success = r.requests ? (100 * r.ok) / r.requests : 0;
  console.log(`| ${title} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${success.toFixed(2)}% | ${loadavg()[0].toFixed(2)} |`);
}
