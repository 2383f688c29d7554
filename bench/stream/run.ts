/**
 * Streams a 500 MB PUT through the gateway (its own process) to an upstream service route that
 * hashes and discards the body after verifying the gateway's context, and the same PUT straight to
 * that route; prints both throughputs and the gateway's peak RSS (VmHWM), which must stay under
 * 150 MB. The path is a Conan file upload with the gateway's accelerated transfers off, so the body
 * takes the streaming proxy path every forwarded body takes.
 *
 *   npx tsx bench/stream/run.ts            # 500 MB
 *   STREAM_MB=1024 npx tsx bench/stream/run.ts
 *   STREAM_THROTTLE_MBPS=50 npx tsx bench/stream/run.ts   # a slow upstream: backpressure must hold
 *   BENCH_SMOKE=1 npx tsx bench/stream/run.ts             # 16 MB
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContextSigner, ContextVerifier, CONTEXT_HEADER, generateContextKeys } from '@anvil/auth';
import { createServiceApp, ctx } from '@anvil/http';
import { startFleet } from '@anvil/testing';
import { memoryOf } from '../gateway/processes';

const MB = 1024 * 1024;
const TOTAL = Number(process.env.STREAM_MB ?? (process.env.BENCH_SMOKE ? 16 : 500)) * MB;
const LIMIT_MB = 150;
/** An instance-level Conan file upload by the administrator (Basic, token as password): nothing to resolve, registry route. */
const UPLOAD_PATH = '/api/v4/packages/conan/v1/files/bench/1.0/_/_/0/export/conan_sources.tgz';
const THROTTLE = Number(process.env.STREAM_THROTTLE_MBPS ?? 0);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A real service (`createServiceApp`) whose upload route hashes and discards the body. */
async function startSink(publicKey: string): Promise<{ server: http.Server; url: string }> {
  const app = createServiceApp({
    name: 'sink',
    verifier: new ContextVerifier(publicKey, 'registry'),
    logger: { debug() {}, info() {}, warn() {}, error() {}, child() { return this; } },
    api: (router) => {
      router.put('/packages/conan/v1/files/*path', (req, res) => {
        const hash = createHash('md5');
        let bytes = 0;
        req.on('data', (c: Buffer) => {
          bytes += c.length;
          hash.update(c);
          if (THROTTLE > 0) {
            req.pause();
            setTimeout(() => req.resume(), (c.length / (THROTTLE * MB)) * 1000);
          }
        });
        req.on('end', () => res.json({ bytes, md5: hash.digest('hex'), rid: ctx(req).rid }));
      });
    },
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** PUTs `total` bytes (content-length, written with backpressure) and resolves with the JSON answer. */
function upload(base: string, total: number, headers: Record<string, string> = {}): Promise<{ bytes: number; md5: string }> {
  const chunk = Buffer.alloc(MB, 'a');
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${UPLOAD_PATH}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': total } });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${res.statusCode} ${body}`))));
    });
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** Uploads to `base`, checks what the sink received, and returns the throughput in MB/s. */
async function timed(base: string, expectedMd5: string, headers?: Record<string, string>): Promise<number> {
  const started = performance.now();
  const result = await upload(base, TOTAL, headers);
  const seconds = (performance.now() - started) / 1000;
  if (result.bytes !== TOTAL || result.md5 !== expectedMd5) throw new Error(`upstream received ${result.bytes} bytes with a different checksum`);
  return TOTAL / MB / seconds;
}

async function main(): Promise<void> {
  const keys = generateContextKeys();
  const sink = await startSink(keys.publicKey);
  const fleet = await startFleet({ services: ['identity'], databaseUrl: DATABASE_URL, amqp: false, keys, upstreams: { registry: sink.url }, env: { ACCELERATED_TRANSFERS: 'false' } });
  try {
    const pid = fleet.gateway.process.pid!;
    const expected = createHash('md5');
    for (let sent = 0; sent < TOTAL; sent += MB) expected.update(Buffer.alloc(Math.min(MB, TOTAL - sent), 'a'));
    const md5 = expected.digest('hex');
    const idle = memoryOf(pid);
    const root = { id: 1, username: 'root', name: 'Administrator', admin: true, state: 'active' };
    const context = new ContextSigner(keys.privateKey).sign({ rid: 'bench', m: 'PUT', p: UPLOAD_PATH, aud: 'registry', base: fleet.url, exp: Date.now() + 3_600_000, user: root, scopes: ['api'], auth: 'basic' });
    const direct = await timed(sink.url, md5, { [CONTEXT_HEADER]: context });
    const through = await timed(fleet.url, md5, { authorization: `Basic ${Buffer.from(`root:${fleet.adminToken}`).toString('base64')}` });
    const mem = memoryOf(pid);
    console.log(`streamed PUT of ${(TOTAL / MB).toFixed(0)} MB${THROTTLE ? `, upstream throttled to ${THROTTLE} MB/s` : ''}, ${new Date().toISOString()}`);
    console.log('| path | MB/s | gateway RSS idle MB | gateway peak RSS MB |');
    console.log('|---|---:|---:|---:|');
    console.log(`| direct to the service | ${direct.toFixed(0)} | — | — |`);
    console.log(`| through the gateway | ${through.toFixed(0)} | ${idle.rssMb.toFixed(1)} | ${mem.peakMb.toFixed(1)} |`);
    if (mem.peakMb >= LIMIT_MB) {
      console.log(`FAIL: gateway peak RSS above the limit (${LIMIT_MB} MB)`);
      process.exitCode = 1;
    }
  } finally {
    await fleet.stop();
    await new Promise<void>((r) => sink.server.close(() => r()));
  }
}

main().then(
  () => process.exit(),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
