/**
 * The registry alone (no gateway): a registry process signed for with a key of this script's own, so
 * the gateway's share of the end-to-end numbers can be told apart. Measures sequential 1 KB PUT/GET,
 * ping throughput at 32 in flight, and MB/s with peak RSS for the big files.
 * Usage: npx tsx bench/registry/direct.ts  (env: DATABASE_URL, BENCH_SIZES=100M,1G)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContextSigner, CONTEXT_HEADER, generateContextKeys } from '@anvil/auth';
import { freePort } from '@anvil/testing';
import { agent } from './http-client';
import { getDiscard, putFile } from './raw-client';
import { mb, peakRss, resetPeak } from './proc';
import { ensureFile, SIZES } from './files';

const keys = generateContextKeys();
const signer = new ContextSigner(keys.privateKey);
const RECIPE = '/api/v4/projects/1/packages/conan/v2/conans/bench/1.0/_/_/revisions/d41d8cd98f00b204e9800998ecf8427e/files/conan_sources.tgz';
const PING = '/api/v4/packages/conan/v1/ping';

function context(method: string, p: string) {
  const user = { id: 1, username: 'bench', name: 'bench', admin: true, state: 'active' };
  const project = { id: 1, path_with_namespace: 'bench/bench', namespace_id: 1, group_id: null, visibility: 'private' as const, access_level: 50 };
  return { [CONTEXT_HEADER]: signer.sign({ rid: 'bench', m: method, p, aud: 'registry', base: 'http://127.0.0.1', user, scopes: ['api'], auth: 'pat', project }) };
}

function call(port: number, method: string, p: string, headers: Record<string, string>, body?: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = http.request({ port, method, path: p, agent, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end(body);
  });
}

async function rate(n: number, inFlight: number, one: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (started++ < n) await one();
  }));
  return Math.round(n / ((performance.now() - t) / 1000));
}

async function main(): Promise<void> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-registry-'));
  const env = { ...process.env, PORT: String(port), GATEWAY_PUBLIC_KEY: keys.publicKey, INTERNAL_API_TOKEN: randomBytes(24).toString('hex'), DB_SCHEMA: `bench_registry_${Date.now().toString(36)}`, STORAGE_DIR: dir, LOG_LEVEL: 'warn', CONAN_JWT_SECRET: randomBytes(32).toString('hex') };
  const proc = spawn(process.execPath, ['--require', 'tsx/cjs', 'services/registry/src/main.ts'], { env, stdio: 'inherit' });
  try {
    for (let i = 0; i < 150; i++) {
      if ((await fetch(`http://127.0.0.1:${port}/-/readiness`).catch(() => null))?.ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const [put, get, ping] = [context('PUT', RECIPE), context('GET', RECIPE), context('GET', PING)];
    for (const label of (process.env.BENCH_SIZES ?? '100M,1G').split(',').filter((s) => SIZES[s])) {
      const file = await ensureFile(label, SIZES[label][0]);
      resetPeak(proc.pid!);
      let t = performance.now();
      await putFile(`http://127.0.0.1:${port}${RECIPE}`, file, put);
      const up = SIZES[label][0] / 1e6 / ((performance.now() - t) / 1000);
      t = performance.now();
      await getDiscard(`http://127.0.0.1:${port}${RECIPE}`, get);
      const down = SIZES[label][0] / 1e6 / ((performance.now() - t) / 1000);
      console.log(`| ${label} up / down | ${up.toFixed(0)} / ${down.toFixed(0)} MB/s, peak RSS ${mb(peakRss(proc.pid!))} MB |`);
    }
    const small = Buffer.alloc(1024, 1);
    for (let i = 0; i < 50; i++) await call(port, 'PUT', RECIPE, put, small);
    console.log(`| 1K PUT, one at a time | ${await rate(300, 1, () => call(port, 'PUT', RECIPE, put, small))}/s |`);
    console.log(`| 1K GET, one at a time | ${await rate(1000, 1, () => call(port, 'GET', RECIPE, get))}/s |`);
    await rate(500, 32, () => call(port, 'GET', PING, ping));
    console.log(`| ping, 32 in flight | ${await rate(5000, 32, () => call(port, 'GET', PING, ping))}/s |`);
  } finally {
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => setTimeout(() => process.exit(0), 300),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
