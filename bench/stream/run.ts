/**
 * Streams a 500 MB PUT (a Conan file upload path) through the gateway (run as its own process) to
 * an upstream service route that discards the body after verifying the gateway's context, and
 * prints the throughput and the gateway's peak RSS (VmHWM). The gateway must stay under 150 MB.
 *
 *   npx tsx bench/stream/run.ts            # 500 MB
 *   STREAM_MB=1024 npx tsx bench/stream/run.ts
 *   STREAM_THROTTLE_MBPS=50 npx tsx bench/stream/run.ts   # a slow upstream: backpressure must hold
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContextVerifier, generateContextKeys } from '@anvil/auth';
import { createServiceApp, ctx } from '@anvil/http';
import { loggedPort, memoryOf, startNodeProcess, stopProcess } from '../gateway/processes';

const MB = 1024 * 1024;
const TOTAL = Number(process.env.STREAM_MB ?? 500) * MB;
const LIMIT_MB = 150;
/** An instance-level Conan file upload: anonymous, nothing to resolve, registry route. */
const UPLOAD_PATH = '/api/v4/packages/conan/v1/files/bench/1.0/_/_/0/export/conan_sources.tgz';
const THROTTLE = Number(process.env.STREAM_THROTTLE_MBPS ?? 0);

/** A real service (`createServiceApp`) whose upload route hashes and discards the body. */
async function startSink(publicKey: string): Promise<{ server: http.Server; url: string }> {
  const app = createServiceApp({
    name: 'sink',
    verifier: new ContextVerifier(publicKey),
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
function upload(port: number, total: number): Promise<{ bytes: number; md5: string }> {
  const chunk = Buffer.alloc(MB, 'a');
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: UPLOAD_PATH, headers: { 'content-type': 'application/octet-stream', 'content-length': total } });
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

async function main(): Promise<void> {
  const keys = generateContextKeys();
  const sink = await startSink(keys.publicKey);
  const { child: gateway, output } = await startNodeProcess(
    'gateway/src/main.ts',
    { PORT: '0', GATEWAY_PRIVATE_KEY: keys.privateKey, INTERNAL_API_TOKEN: 'bench', REGISTRY_URL: sink.url, LOG_LEVEL: 'info', AMQP_URL: 'memory://' },
    '"msg":"listening"',
  );
  try {
    const port = loggedPort(output);
    const idle = memoryOf(gateway.pid!);
    const started = performance.now();
    const result = await upload(port, TOTAL);
    const seconds = (performance.now() - started) / 1000;
    const mem = memoryOf(gateway.pid!);
    const expected = createHash('md5');
    for (let sent = 0; sent < TOTAL; sent += MB) expected.update(Buffer.alloc(Math.min(MB, TOTAL - sent), 'a'));
    if (result.bytes !== TOTAL || result.md5 !== expected.digest('hex')) throw new Error(`upstream received ${result.bytes} bytes with a different checksum`);
    console.log(`streamed PUT ${(TOTAL / MB).toFixed(0)} MB through the gateway in ${seconds.toFixed(2)} s: ${(TOTAL / MB / seconds).toFixed(0)} MB/s`);
    console.log(`gateway RSS: idle ${idle.rssMb.toFixed(1)} MB, peak (VmHWM) ${mem.peakMb.toFixed(1)} MB (limit ${LIMIT_MB} MB)`);
    if (mem.peakMb >= LIMIT_MB) {
      console.log('FAIL: gateway peak RSS above the limit');
      process.exitCode = 1;
    }
  } finally {
    await stopProcess(gateway);
    await new Promise<void>((r) => sink.server.close(() => r()));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
