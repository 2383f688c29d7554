import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort, TEST_INTERNAL_TOKEN, testKeys } from '@anvil/testing';
import { Echo, startEcho } from '../../gateway/test/support/echo';
import { bodyOf, deadPort, responseOf, waitFor } from '../../gateway/test/support/gateway';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../..');
const MB = 1024 * 1024;
const UPLOAD_BYTES = 200 * MB;
const BURST = 20;
const DOWNLOAD_BYTES = 1_000_000;

let echo: Echo;
let gateway: ChildProcess;
let url: string;
let output = '';

beforeAll(async () => {
  echo = await startEcho('work-items');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  gateway = spawn(process.execPath, ['--require', 'tsx/cjs', 'gateway/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      GATEWAY_PRIVATE_KEY: testKeys.privateKey,
      INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN,
      CONAN_JWT_SECRET: 'test-conan-secret',
      IDENTITY_URL: `http://127.0.0.1:${await deadPort()}`,
      WORK_ITEMS_URL: echo.url,
      ACCELERATED_TRANSFERS: 'false',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '90000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gateway.stdout!.on('data', (b) => (output += b));
  gateway.stderr!.on('data', (b) => (output += b));
  const until = Date.now() + 60_000;
  for (;;) {
    if (gateway.exitCode !== null) throw new Error(`gateway exited: ${output}`);
    if ((await fetch(`${url}/-/liveness`).catch(() => null))?.ok) break;
    if (Date.now() > until) throw new Error(`gateway not up: ${output}`);
    await new Promise((r) => setTimeout(r, 150));
  }
});

afterAll(async () => {
  if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
  await echo?.stop();
});

/** Writes `total` bytes of `chunk` repeated, waiting for drain; the hash of what was written. */
async function writeBody(req: http.ClientRequest, chunk: Buffer, from: number, to: number, hash: ReturnType<typeof createHash>): Promise<void> {
  for (let sent = from; sent < to; sent += chunk.length) {
    hash.update(chunk);
    if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
  }
}

test('SIGTERM during a 200 MB streaming upload and a burst of requests: every accepted request completes, new connections are refused, idle ones closed', async () => {
  // an idle keep-alive connection
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const firstReq = http.get(`${url}/api/v4/todos`, { agent: keepAlive });
  const idleSocket = await new Promise<net.Socket>((r) => firstReq.once('socket', r));
  const idleClosed = new Promise<void>((r) => idleSocket.once('close', () => r()));
  const first = await responseOf(firstReq);
  expect(first.statusCode).toBe(200);
  await bodyOf(first);

  // the upload: 20 MB in before SIGTERM
  const chunk = Buffer.alloc(MB);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff;
  const hash = createHash('sha256');
  const upload = http.request(`${url}/api/v4/todos/upload`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(UPLOAD_BYTES) } });
  const uploadAnswer = responseOf(upload);
  await writeBody(upload, chunk, 0, 20 * MB, hash);
  await waitFor<number>(echo.probe, 'data', (n) => n >= 10 * MB, 60_000);

  // the burst: every answer started, then held by the service
  const burstHeld = waitFor<number>(echo.probe, 'held', (n) => n >= BURST, 60_000);
  const burst = Array.from({ length: BURST }, () =>
    responseOf(http.get(`${url}/api/v4/todos?download=${DOWNLOAD_BYTES}&hold=100000`, { agent: false })).then(async (res) => ({ status: res.statusCode, bytes: (await bodyOf(res)).length })),
  );
  await burstHeld;

  const exited = new Promise<number | null>((r) => gateway.once('exit', (code) => r(code)));
  gateway.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));

  // no new connection
  const refused = await new Promise<string>((resolve) => {
    const c = net.connect(Number(new URL(url).port), '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve('connected');
    });
    c.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  expect(refused).toBe('ECONNREFUSED');
  // the idle keep-alive connection was closed at once
  await idleClosed;
  expect(gateway.exitCode).toBeNull();

  // in flight: the held answers go on, the upload sends its remaining 180 MB
  echo.release();
  await writeBody(upload, chunk, 20 * MB, UPLOAD_BYTES, hash);
  upload.end();
  const results = await Promise.all(burst);
  expect(results).toEqual(Array(BURST).fill({ status: 200, bytes: DOWNLOAD_BYTES }));
  const answer = await uploadAnswer;
  expect(answer.statusCode).toBe(200);
  const echoed = JSON.parse((await bodyOf(answer)).toString());
  expect(echoed.bytes).toBe(UPLOAD_BYTES);
  expect(echoed.sha256).toBe(hash.digest('hex'));

  // then it exits by itself, well within the grace period
  expect(await exited).toBe(0);
  keepAlive.destroy();
});
