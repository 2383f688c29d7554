import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContextVerifier } from '@anvil/auth';
import { createServiceApp, ctx } from '@anvil/http';
import { testKeys } from '@anvil/testing';

/** A running echo upstream: answers every /api/v4 request with what it received. */
export interface Echo {
  name: string;
  url: string;
  /** Events: `request` (its path), `data` (bytes so far), `aborted` (request cut before its end), `res-closed` (client gone mid-response). */
  probe: EventEmitter;
  /** Resumes every paused download (see `?hold=`). */
  release(): void;
  stop(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Starts a tiny real service (`createServiceApp`, trusting the test signing key) whose every API route
 * echoes `{service, path, method, ctx, sha256, bytes, body, headers}` after reading the whole body
 * (`body` when the service's JSON/form parsers read it).
 * `?download=N` streams N bytes instead; with `&hold=K` it sends K bytes then waits for `release()`;
 * `?hang=1` never answers.
 */
export async function startEcho(name: string): Promise<Echo> {
  const probe = new EventEmitter();
  let held: (() => void)[] = [];
  const app = createServiceApp({
    name,
    verifier: new ContextVerifier(testKeys.publicKey, name),
    logger: { debug() {}, info() {}, warn() {}, error() {}, child() { return this; } },
    api: (router) => {
      router.use((req, res) => {
        probe.emit('request', req.originalUrl);
        if (req.query.hang) return; // never answers (upstream timeout)
        const download = Number(req.query.download ?? 0);
        if (download > 0) return streamDownload(res, download, Number(req.query.hold ?? 0), probe, (r) => {
          held.push(r);
          probe.emit('held', held.length);
        });
        const echo = (sha256: string, bytes: number) =>
          res.json({ service: name, method: req.method, path: req.originalUrl, ctx: ctx(req), sha256, bytes, body: req.body, headers: req.headers });
        // JSON/form bodies were already read by the service's body parsers
        if (req.readableEnded) return echo('', Number(req.headers['content-length'] ?? 0));
        const hash = createHash('sha256');
        let bytes = 0;
        req.on('data', (c: Buffer) => {
          hash.update(c);
          bytes += c.length;
          probe.emit('data', bytes);
        });
        req.on('close', () => {
          if (!req.complete) probe.emit('aborted', bytes);
        });
        req.on('end', () => echo(hash.digest('hex'), bytes));
      });
    },
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    name,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    probe,
    release: () => {
      const all = held;
      held = [];
      for (const r of all) r();
    },
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

function streamDownload(res: http.ServerResponse, total: number, hold: number, probe: EventEmitter, onHold: (release: () => void) => void): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  let sent = 0;
  let held = false;
  res.on('close', () => {
    if (!res.writableFinished) probe.emit('res-closed', sent);
  });
  const pump = () => {
    while (sent < total) {
      if (hold && !held && sent >= hold) {
        held = true;
        onHold(pump);
        return;
      }
      const n = Math.min(CHUNK.length, total - sent);
      sent += n;
      if (!res.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}
