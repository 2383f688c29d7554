import { createHash } from 'node:crypto';
import net from 'node:net';
import type { RunningGateway } from '../src';
import { Echo, startEcho } from './support/echo';
import { startTestGateway, waitFor } from './support/gateway';

/** An anonymous upload route with nothing to resolve, proxied as it is (work-items answers; Conan writes need a caller). */
const UPLOAD = '/api/v4/todos/upload';
/** Both client timeouts (body and send), ms. */
const BODY_TIMEOUT = 300;
let echo: Echo;
let gw: RunningGateway;

beforeAll(async () => {
  echo = await startEcho('work-items');
  gw = await startTestGateway({ 'work-items': echo.url }, { CLIENT_BODY_TIMEOUT_MS: String(BODY_TIMEOUT), CLIENT_SEND_TIMEOUT_MS: String(BODY_TIMEOUT), UPSTREAM_TIMEOUT_MS: '1000' });
});

afterAll(async () => {
  await gw?.stop();
  await echo?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw connection to the gateway: what it reads, and when the gateway closed it. */
function connect(): { socket: net.Socket; received: () => string; closed: Promise<number> } {
  const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
  let data = '';
  socket.on('data', (c) => (data += c.toString('latin1')));
  socket.on('error', () => undefined);
  const started = performance.now();
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now() - started)));
  return { socket, received: () => data, closed };
}

function head(path: string, headers: Record<string, string>): string {
  return [`PUT ${path} HTTP/1.1`, 'Host: anvil', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
}

/** Status and JSON body of the (first) answer in `raw`. */
function answer(raw: string): { status: number; headers: string; body: unknown } {
  const end = raw.indexOf('\r\n\r\n');
  return { status: Number(raw.split(' ')[1]), headers: raw.slice(0, end).toLowerCase(), body: JSON.parse(raw.slice(end + 4)) };
}

describe('a request body that stalls', () => {
  test('is cut with 408 once nothing arrives for CLIENT_BODY_TIMEOUT_MS, the connection closed and the upstream request aborted', async () => {
    const aborted = waitFor<number>(echo.probe, 'aborted');
    const c = connect();
    c.socket.write(head(UPLOAD, { 'Content-Length': '1000' }) + 'x'.repeat(10));
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(BODY_TIMEOUT - 50);
    expect(ms).toBeLessThan(BODY_TIMEOUT + 2000);
    const a = answer(c.received());
    expect(a.status).toBe(408);
    expect(a.body).toEqual({ message: '408 Request Timeout' });
    expect(a.headers).toContain('connection: close');
    expect(await aborted).toBe(10);
  });

  test('is cut the same when the client waits for 100 Continue, gets it, and sends nothing', async () => {
    const c = connect();
    c.socket.write(head(UPLOAD, { 'Content-Length': '1000', Expect: '100-continue' }));
    await c.closed;
    const raw = c.received();
    expect(raw.startsWith('HTTP/1.1 100 Continue\r\n\r\n')).toBe(true);
    const a = answer(raw.slice('HTTP/1.1 100 Continue\r\n\r\n'.length));
    expect(a.status).toBe(408);
    expect(a.body).toEqual({ message: '408 Request Timeout' });
  });

  test('is cut when a chunked body stops between chunks', async () => {
    const c = connect();
    c.socket.write(head(UPLOAD, { 'Transfer-Encoding': 'chunked' }) + '5\r\nhello\r\n');
    await c.closed;
    expect(answer(c.received()).status).toBe(408);
  });
});

describe('what the body timeout leaves alone', () => {
  test('a slow body whose bytes keep coming within the timeout arrives whole', async () => {
    const c = connect();
    const parts = ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee'];
    c.socket.write(head(UPLOAD, { 'Content-Length': String(parts.join('').length), Connection: 'close' }));
    for (const p of parts) {
      await sleep(BODY_TIMEOUT / 2);
      c.socket.write(p);
    }
    await c.closed;
    const a = answer(c.received()) as { status: number; body: { sha256: string; bytes: number } };
    expect(a.status).toBe(200);
    expect(a.body.bytes).toBe(20);
    expect(a.body.sha256).toBe(createHash('sha256').update(parts.join('')).digest('hex'));
  });

  test('a complete body whose upstream is slow to answer: the upstream timeout (504), not 408', async () => {
    const c = connect();
    c.socket.write(head(`${UPLOAD}?hang=1`, { 'Content-Length': '4', Connection: 'close' }) + 'abcd');
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(1000 - 50);
    const a = answer(c.received());
    expect(a.status).toBe(504);
    expect(a.body).toEqual({ message: '504 Gateway Timeout' });
  });

  test('a kept connection idle after a body longer than the timeout still serves the next request', async () => {
    const c = connect();
    c.socket.write(head(UPLOAD, { 'Content-Length': '4' }) + 'abcd');
    await sleep(BODY_TIMEOUT * 3);
    expect(answer(c.received()).status).toBe(200);
    const before = c.received().length;
    c.socket.write(head(UPLOAD, { 'Content-Length': '2', Connection: 'close' }) + 'ef');
    await c.closed;
    const second = answer(c.received().slice(before)) as { status: number; body: { bytes: number } };
    expect(second.status).toBe(200);
    expect(second.body.bytes).toBe(2);
  });
});

describe('an answer whose client stops reading', () => {
  test('a proxied one is cut after CLIENT_SEND_TIMEOUT_MS, the upstream request with it', async () => {
    const size = 64 << 20;
    const gone = waitFor<number>(echo.probe, 'res-closed', () => true, 10_000);
    const c = connect();
    c.socket.write(`GET /api/v4/todos/download?download=${size} HTTP/1.1\r\nHost: anvil\r\n\r\n`);
    c.socket.pause();
    const sent = await gone;
    expect(sent).toBeLessThan(size);
    c.socket.resume();
    await c.closed;
    expect(c.received().length).toBeLessThan(size);
  });

  test('an upstream slow between two parts of its answer, to a client that reads, is not cut', async () => {
    const c = connect();
    c.socket.write(`GET /api/v4/todos/download?download=200000&hold=70000 HTTP/1.1\r\nHost: anvil\r\nConnection: close\r\n\r\n`);
    await sleep(BODY_TIMEOUT * 2.5);
    echo.release();
    await c.closed;
    const raw = c.received();
    expect(raw.startsWith('HTTP/1.1 200')).toBe(true);
    expect(raw.slice(0, raw.indexOf('\r\n\r\n')).toLowerCase()).toContain('transfer-encoding: chunked');
    // the body in full, chunk by chunk, to its last (empty) chunk
    let at = raw.indexOf('\r\n\r\n') + 4;
    let bytes = 0;
    let n = NaN;
    for (;;) {
      const eol = raw.indexOf('\r\n', at);
      n = eol < 0 ? NaN : parseInt(raw.slice(at, eol), 16);
      // a cut answer ends without its last chunk
      if (!(n > 0) || eol + 2 + n > raw.length) break;
      bytes += n;
      at = eol + 2 + n + 2;
    }
    expect(n).toBe(0);
    expect(bytes).toBe(200_000);
  });
});
