import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** GitLab's webhook timeout (`gitlab.webhook_timeout`, default 10 s). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a response body is kept in the log (`WebHookLog` truncation). */
export const RESPONSE_BODY_LIMIT = 8 * 1024;
const RESPONSE_READ_LIMIT = 1024 * 1024;

/** One outbound POST: the checked URL, the address to connect to, headers and body. */
export interface OutboundRequest {
  url: URL;
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  timeoutMs?: number;
}

/** A receiver's answer (body truncated), or the transport error that prevented one. */
export type Outcome = { status: number; headers: Record<string, string>; body: string } | { error: string };

/**
 * POSTs to the address that was checked, never to a fresh DNS answer: the connection's lookup is
 * pinned, so Host and TLS SNI stay the URL's host name. Redirects are not followed.
 */
export function post(req: OutboundRequest): Promise<Outcome> {
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: req.address, family: req.family }]);
    else cb(null, req.address, req.family);
  };
  const client = req.url.protocol === 'https:' ? https : http;
  const headers = { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) };
  return new Promise((resolve) => {
    const r = client.request(req.url, { method: 'POST', headers, lookup: pinned, rejectUnauthorized: req.verifyTls, timeout: req.timeoutMs ?? WEBHOOK_TIMEOUT_MS, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= RESPONSE_READ_LIMIT) chunks.push(c);
        else res.destroy();
      });
      res.on('close', () => {
        const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        const kept = Object.fromEntries(Object.entries(res.headers).slice(0, 50).map(([k, v]) => [k, String(Array.isArray(v) ? v.join(', ') : v).slice(0, 1024)]));
        resolve({ status: res.statusCode ?? 0, headers: kept, body });
      });
    });
    r.on('timeout', () => r.destroy(new Error('execution expired')));
    r.on('error', (e) => resolve({ error: e.message }));
    r.end(req.body);
  });
}
