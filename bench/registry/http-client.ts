import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';

/** A keep-alive agent for the benchmark client. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * Streams a file as the body of a PUT (reads of 1 MiB, or of the file's size when smaller: a 1 MiB
 * buffer per read of a 1 KB file cost the client about 1 ms of garbage collection per upload, on the
 * critical path of every server measured), Content-Length set; resolves with the status.
 */
export function putFile(url: string, file: string, headers: Record<string, string>): Promise<number> {
  const size = statSync(file).size;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent, headers: { ...headers, 'Content-Length': String(size) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: Math.min(1 << 20, Math.max(size, 1)) }).pipe(req);
  });
}

/** GETs a URL, discarding the body; resolves with the status and the byte count. */
export function getDiscard(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'GET', agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A small request (JSON or text answer) and its body. */
export function request(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url, { method, agent, headers: { ...headers, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(data)) } : {}) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * Sends `rate` requests per second for `seconds` (open loop: requests start on schedule whatever the
 * answers do) and returns latency percentiles in ms and the achieved rate.
 */
export async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number) {
  const lat: number[] = [];
  let errors = 0;
  const total = rate * seconds;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // a request sent late counts from when it was due; one sent up to 1 ms early (timers have 1 ms
    // resolution) from when it was sent
    const from = Math.min(due, performance.now());
    inflight.push(
      request(url, 'GET', headers).then(
        (r) => {
          lat.push(performance.now() - from);
          if (r.status !== 200) errors++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  const pct = (q: number) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? NaN;
  return { sent: total, achieved: Math.round(total / elapsed), errors, p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: lat[lat.length - 1] ?? NaN };
}
