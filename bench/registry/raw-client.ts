import { closeSync, openSync, readSync, statSync } from 'node:fs';
import net from 'node:net';

/**
 * The throughput runs' client: HTTP/1.1 over a plain socket that reads into one reused 1 MiB buffer
 * (`onread`) and sends a file from two reused 1 MiB buffers, so it allocates nothing per chunk. Node's
 * http client allocates every 64 KiB it receives and every chunk a read stream gives; on this 2-core
 * machine that cost it 1.2–2 CPU-seconds per GB downloaded and ~1.1 per GB uploaded, on the same cores
 * as the server measured, and the figures measured the client as much as the server. Every target is
 * measured with this client. `putFile` and `getDiscard` send one request at a time per origin; the
 * connection is kept while the server keeps it (gunicorn's sync workers close it after each answer) and
 * opened again when needed. The latency runs keep a pool of these connections (`open-loop.ts`).
 */

/** Every read lands here: each read is consumed in its callback, before the next one on any connection. */
const readBuffer = Buffer.allocUnsafe(1 << 20);

interface Pending {
  resolve: (r: { status: number; bytes: number }) => void;
  reject: (e: Error) => void;
}

/**
 * Where the head's blank line ends in `view` from `i` on, or -1: `before` is the head read so far,
 * whose last bytes may begin the blank line.
 */
function headEnd(before: string, view: Buffer, i: number): number {
  const carry = before.slice(-3);
  if (carry) {
    const at = (carry + view.toString('latin1', i, Math.min(view.length, i + 3))).indexOf('\r\n\r\n');
    if (at >= 0) return i + at + 4 - carry.length;
  }
  const at = view.indexOf('\r\n\r\n', i);
  return at < 0 ? -1 : at + 4;
}

/** Parses one response at a time out of what the socket reads, counting (not keeping) body bytes. */
class ResponseReader {
  private head = '';
  private status = 0;
  private state: 'head' | 'length' | 'chunk-size' | 'chunk' | 'chunk-end' | 'trailer' | 'until-close' | 'idle' = 'idle';
  private left = 0;
  private line = '';
  private bytes = 0;
  private pending: Pending | null = null;
  keepAlive = true;
  /** Whether any byte of the current response arrived. */
  started = false;

  expect(p: Pending): void {
    this.head = '';
    this.line = '';
    this.status = 0;
    this.left = 0;
    this.bytes = 0;
    this.keepAlive = true;
    this.started = false;
    this.state = 'head';
    this.pending = p;
  }

  /** Consumes `buf[0, n)`; may complete the response. */
  feed(buf: Buffer, n: number): void {
    // what this read filled (the rest of the reused buffer is stale)
    const view = buf.subarray(0, n);
    if (n > 0) this.started = true;
    let i = 0;
    while (i < n && this.state !== 'idle') {
      if (this.state === 'head') {
        // only the head becomes text: the body after it in the same read stays bytes
        const end = headEnd(this.head, view, i);
        const stop = end < 0 ? n : end;
        this.head += view.toString('latin1', i, stop);
        i = stop;
        if (end >= 0) this.startBody(this.head.slice(0, -4));
        continue;
      }
      if (this.state === 'length' || this.state === 'chunk') {
        const take = Math.min(this.left, n - i);
        this.bytes += take;
        this.left -= take;
        i += take;
        if (this.left === 0) this.state === 'length' ? this.finish() : (this.state = 'chunk-end');
        continue;
      }
      if (this.state === 'until-close') {
        this.bytes += n - i;
        return;
      }
      // a line: a chunk's size, the CRLF after its data, or (after the last chunk) a trailer or the end
      const nl = view.indexOf('\n', i);
      const stop = nl < 0 ? n : nl + 1;
      this.line += view.toString('latin1', i, stop);
      i = stop;
      if (!this.line.endsWith('\n')) continue;
      const line = this.line.trim();
      this.line = '';
      if (this.state === 'chunk-end') this.state = 'chunk-size';
      else if (this.state === 'trailer') {
        if (line === '') this.finish();
      } else if (line !== '') {
        this.left = parseInt(line, 16);
        this.state = this.left === 0 ? 'trailer' : 'chunk';
      }
    }
  }

  private startBody(head: string): void {
    const lines = head.split('\r\n');
    this.status = Number(lines[0].split(' ')[1]);
    const headers = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    // HTTP/1.0 (Conan's single-threaded server) closes unless it says otherwise; HTTP/1.1 keeps
    const connectionHeader = headers.get('connection')?.toLowerCase();
    this.keepAlive = lines[0].startsWith('HTTP/1.0') ? connectionHeader === 'keep-alive' : connectionHeader !== 'close';
    const length = headers.get('content-length');
    if (headers.get('transfer-encoding')?.toLowerCase().includes('chunked')) this.state = 'chunk-size';
    else if (length !== undefined) {
      this.left = Number(length);
      this.state = 'length';
      if (this.left === 0) this.finish();
    } else if (this.status === 204 || this.status === 304) this.finish();
    else {
      this.state = 'until-close';
      this.keepAlive = false;
    }
  }

  private finish(): void {
    this.state = 'idle';
    const p = this.pending;
    this.pending = null;
    p?.resolve({ status: this.status, bytes: this.bytes });
  }

  /** The connection closed: ends a body read until close, fails anything else in progress. */
  closed(): void {
    if (this.state === 'until-close') return this.finish();
    if (this.state !== 'idle') {
      this.state = 'idle';
      const p = this.pending;
      this.pending = null;
      p?.reject(new Error('connection closed before the response ended'));
    }
  }
}

export class Connection {
  readonly socket: net.Socket;
  readonly reader = new ResponseReader();

  constructor(host: string, port: number) {
    const callback = (n: number, buf: Uint8Array): boolean => {
      this.reader.feed(buf as Buffer, n);
      return true; // keep reading
    };
    this.socket = net.connect({ host, port, noDelay: true, onread: { buffer: readBuffer, callback } });
    this.socket.on('close', () => this.reader.closed());
    this.socket.on('error', () => undefined);
  }
}

const sendBuffers = [Buffer.allocUnsafe(1 << 20), Buffer.allocUnsafe(1 << 20)];
const connections = new Map<string, Connection>();

/** The kept connection to the URL's origin (and that it is one), or a new one when there is none or it closed. */
function connection(url: URL): { c: Connection; reused: boolean } {
  const key = url.host;
  const kept = connections.get(key);
  // not writable once closed, by either side
  if (kept && kept.socket.writable) return { c: kept, reused: true };
  const c = new Connection(url.hostname, Number(url.port || 80));
  connections.set(key, c);
  return { c, reused: false };
}

export function head(method: string, url: URL, headers: Record<string, string>): string {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return lines.join('\r\n') + '\r\n\r\n';
}

/**
 * Sends a request and reads its answer. A kept connection the server closed while it was idle (its
 * FIN not yet seen when the request went out) fails before any byte of an answer: the request is
 * sent once more on a new connection, as browsers and HTTP clients do for idempotent requests.
 */
async function exchange(url: URL, send: (socket: net.Socket) => Promise<void>, retry = true): Promise<{ status: number; bytes: number }> {
  const { c, reused } = connection(url);
  const answered = new Promise<{ status: number; bytes: number }>((resolve, reject) => c.reader.expect({ resolve, reject }));
  answered.catch(() => undefined);
  try {
    await send(c.socket);
    const r = await answered;
    if (!c.reader.keepAlive) c.socket.destroy();
    return r;
  } catch (e) {
    c.socket.destroy();
    if (retry && reused && !c.reader.started) return exchange(url, send, false);
    throw e;
  }
}

export function written(socket: net.Socket, data: Buffer | string): Promise<void> {
  const p = new Promise<void>((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));
  // awaited later (or not at all once an earlier write failed): never an unhandled rejection
  p.catch(() => undefined);
  return p;
}

/** PUTs a file (Content-Length set), reading it into two reused 1 MiB buffers; resolves with the status. */
export async function putFile(href: string, file: string, headers: Record<string, string>): Promise<number> {
  const size = statSync(file).size;
  const url = new URL(href);
  const r = await exchange(url, async (socket) => {
    const fd = openSync(file, 'r');
    try {
      const sending: Promise<void>[] = [written(socket, head('PUT', url, { ...headers, 'Content-Length': String(size) }))];
      for (let pos = 0, i = 0; pos < size; i++) {
        const buf = sendBuffers[i % 2];
        // the buffer's previous write must be done before it is filled again
        if (sending.length >= 2) await sending.shift();
        const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
        if (n <= 0) throw new Error('file shorter than its size');
        pos += n;
        sending.push(written(socket, buf.subarray(0, n)));
      }
      await Promise.all(sending);
    } finally {
      closeSync(fd);
    }
  });
  return r.status;
}

/** GETs a URL, counting and discarding the body; resolves with the status and the byte count. */
export function getDiscard(href: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  const url = new URL(href);
  return exchange(url, (socket) => written(socket, head('GET', url, headers)));
}
