import http from 'node:http';

/** A keep-alive agent for the bench's setup requests (transfers use `raw-client.ts`, latency runs `open-loop.ts`). */
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
