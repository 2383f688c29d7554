import http from 'node:http';

/** A keep-alive agent for the latency runs' client (the throughput runs use `raw-client.ts`). */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

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
