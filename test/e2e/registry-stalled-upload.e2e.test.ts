import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { UPLOADS_PREFIX } from '@anvil/auth';
import { PREAUTHORIZE_ABOVE } from '@anvil/gateway';
import { registryJwt, startMiniFleet, uploadsStillReceiving, userWithProject, type MiniFleet } from './registry-fleet';
import { RREV } from '../../services/registry/test/helpers';

/**
 * Accelerated transfers whose client stalls, through the real gateway with short client timeouts: an
 * upload whose client stops sending gets GitLab's answer in front of Workhorse (nginx's 408), and
 * nothing stored is lost or left behind; a download whose client stops reading is cut, and the
 * gateway lets go of the file.
 */
let f: MiniFleet;
let jwt: string;
let file: string;

beforeAll(async () => {
  f = await startMiniFleet({}, { CLIENT_BODY_TIMEOUT_MS: '300', CLIENT_SEND_TIMEOUT_MS: '300' });
  const owner = await userWithProject(f, 'stall-owner', 'stall');
  jwt = await registryJwt(f, owner.projectId, 'stall-owner', owner.token);
  file = `/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/stall/1.0/${owner.fullPath.replace('/', '+')}/stable/revisions/${RREV}/files/conanfile.py`;
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

/** Sends `first` of the body the headers announce, then nothing: the answer, and whether the gateway closed the connection. */
function stall(headers: Record<string, string>, first: Buffer): Promise<{ status: number; body: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${f.url}${file}`, { method: 'PUT', headers: { Authorization: `Bearer ${jwt}`, ...headers }, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => req.socket?.once('close', () => resolve({ status: res.statusCode ?? 0, body, closed: true })));
    });
    req.on('error', reject);
    req.write(first);
  });
}

function send(method: string, body?: Buffer, path = file): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${f.url}${path}`, { method, headers: { Authorization: `Bearer ${jwt}` }, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function leftoverUploads(): Promise<string[]> {
  const out: string[] = [];
  for await (const o of f.registry.deps.storage.list(UPLOADS_PREFIX)) out.push(o.key);
  return out;
}

describe('an upload whose client stops sending', () => {
  const stored = Buffer.from('from conan import ConanFile\n');

  beforeAll(async () => {
    expect((await send('PUT', stored)).status).toBe(200);
  });

  it.each([
    ['stored before it is forwarded (a small declared length)', { 'Content-Length': '1000' }, Buffer.alloc(10, 1)],
    ['pre-authorised while it streams (a large declared length)', { 'Content-Length': String(PREAUTHORIZE_ABOVE + 1) }, Buffer.alloc(100_000, 2)],
    ['chunked, as Conan sends it', { 'Transfer-Encoding': 'chunked' }, Buffer.alloc(1000, 3)],
  ])('%s: 408, the connection closed, the stored file kept and nothing left behind', async (_how, headers, first) => {
    const r = await stall(headers, first);
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body)).toEqual({ message: '408 Request Timeout' });
    expect(r.closed).toBe(true);
    const after = await send('GET');
    expect(after.status).toBe(200);
    expect(after.body.equals(stored)).toBe(true);
    for (let i = 0; i < 50 && (await leftoverUploads()).length; i++) await new Promise((res) => setTimeout(res, 50));
    expect(await leftoverUploads()).toEqual([]);
  });
});

/** Sends raw bytes on a new connection; the answer's status line (or '' when closed without one) once the connection closes. */
function raw(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(f.url).port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    const timer = setTimeout(() => reject(new Error('no end in 5 s')), 5000);
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer.split('\r\n')[0]);
    });
    // the body's end, or what follows it, never comes: the server must close by itself
  });
}

describe('an upload whose body is malformed on the wire', () => {
  const stored = Buffer.from('from conan import ConanFile  # kept\n');
  const put = (headers: string) => `PUT ${file} HTTP/1.1\r\nHost: anvil\r\nAuthorization: Bearer ${jwt}\r\n${headers}\r\n`;

  beforeAll(async () => {
    expect((await send('PUT', stored)).status).toBe(200);
  });

  it.each([
    ['a chunk size that is not hex', () => put('Transfer-Encoding: chunked\r\n') + '5\r\nhello\r\nzz\r\nmore\r\n0\r\n\r\n'],
    ['a chunk longer than its size', () => put('Transfer-Encoding: chunked\r\n') + '3\r\nhello world\r\n0\r\n\r\n'],
    ['both Content-Length and Transfer-Encoding (a smuggling attempt)', () => put('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n') + '5\r\nhello\r\n0\r\n\r\n'],
    ['two different Content-Lengths', () => put('Content-Length: 5\r\nContent-Length: 6\r\n') + 'hello!'],
    ['a Content-Length that is not a number', () => put('Content-Length: 5x\r\n') + 'hello'],
  ])('%s: 400 and the connection closed, the stored file kept, nothing left behind or held open', async (_how, request) => {
    expect(await raw(Buffer.from(request(), 'latin1'))).toBe('HTTP/1.1 400 Bad Request');
    expect(await uploadsStillReceiving(f)).toBe(0);
    const after = await send('GET');
    expect(after.status).toBe(200);
    expect(after.body.equals(stored)).toBe(true);
    for (let i = 0; i < 50 && (await leftoverUploads()).length; i++) await new Promise((res) => setTimeout(res, 50));
    expect(await leftoverUploads()).toEqual([]);
  });
});

describe('an upload whose client is gone before the gateway listened', () => {
  it.each([
    ['stored before it is forwarded (a small declared length)', 'Content-Length: 1000'],
    ['pre-authorised while it streams (chunked)', 'Transfer-Encoding: chunked'],
  ])('%s: nothing left behind or held open, the stored file kept', async (_how, header) => {
    const before = await send('GET');
    const socket = net.connect(Number(new URL(f.url).port), '127.0.0.1', () => {
      socket.write(`PUT ${file} HTTP/1.1\r\nHost: anvil\r\nAuthorization: Bearer ${jwt}\r\n${header}\r\n\r\n${header.startsWith('Transfer') ? 'a\r\n' : ''}0123456789`);
      // gone at once: the request is still being authenticated when its 'close' fires
      socket.destroy();
    });
    socket.on('error', () => undefined);
    expect(await uploadsStillReceiving(f)).toBe(0);
    expect(await leftoverUploads()).toEqual([]);
    const after = await send('GET');
    expect(after.status).toBe(200);
    expect(after.body.equals(before.body)).toBe(true);
  });
});

/** Bytes this process has read through system calls so far (the gateway runs in it). */
const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1]);

describe('a download whose client stops reading', () => {
  const size = 64 << 20;
  const big = () => file.replace(/conanfile\.py$/, 'conan_sources.tgz');
  const openFds = () => fs.readdirSync('/proc/self/fd').length;

  it('is cut once the client has taken nothing for CLIENT_SEND_TIMEOUT_MS, and the file is let go', async () => {
    expect((await send('PUT', Buffer.alloc(size, 7), big())).status).toBe(200);
    const fds = openFds();
    const socket = net.connect(Number(new URL(f.url).port), '127.0.0.1');
    socket.write(`GET ${big()} HTTP/1.1\r\nHost: anvil\r\nAuthorization: Bearer ${jwt}\r\n\r\n`);
    socket.pause();
    // far past the timeout: the gateway has stopped sending and closed its end
    await new Promise((r) => setTimeout(r, 2000));
    let received = 0;
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (c: Buffer) => (received += c.length));
    socket.on('error', () => undefined);
    socket.resume();
    await ended;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(size);
    for (let i = 0; i < 50 && openFds() > fds; i++) await new Promise((r) => setTimeout(r, 20));
    expect(openFds()).toBeLessThanOrEqual(fds);
    // a reader that keeps reading gets it all
    const whole = await send('GET', undefined, big());
    expect(whole.status).toBe(200);
    expect(whole.body.length).toBe(size);
  });

  it('is not read at all for a client gone while the request was authenticated (a kept answer)', async () => {
    expect((await send('PUT', Buffer.alloc(size, 9), big())).status).toBe(200);
    // downloaded once whole: the gateway keeps the answer and sends it again from storage itself
    expect((await send('GET', undefined, big())).body.length).toBe(size);
    const before = bytesRead();
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(Number(new URL(f.url).port), '127.0.0.1', () => {
        socket.write(`GET ${big()} HTTP/1.1\r\nHost: anvil\r\nAuthorization: Bearer ${jwt}\r\n\r\n`);
        socket.destroy();
      });
      socket.on('error', () => undefined);
    }
    await new Promise((r) => setTimeout(r, 500));
    // three whole sends would read 192 MiB of the file
    expect(bytesRead() - before).toBeLessThan(16 << 20);
  });
});
