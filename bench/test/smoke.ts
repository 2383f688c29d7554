import { spawn } from 'node:child_process';
import path from 'node:path';
import { testAmqpUrl, testDatabaseUrl } from '@anvil/testing';

const ROOT = path.resolve(__dirname, '..', '..');

/** What a benchmark run printed, and how it ended. */
export interface BenchRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a benchmark entry point (relative to the repository root) in smoke mode (`BENCH_SMOKE=1`) as
 * its own process, on the test run's Postgres and bus, and resolves when it exits. Rejects with what
 * it printed when it fails.
 */
export function runBenchSmoke(entry: string): Promise<BenchRun> {
  const env = { ...process.env, BENCH_SMOKE: '1', DATABASE_URL: testDatabaseUrl(), AMQP_URL: testAmqpUrl() };
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-20_000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve({ code, stdout, stderr });
      else reject(new Error(`${entry} exited with ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    });
  });
}
