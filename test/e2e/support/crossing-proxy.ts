import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded, and the index of the replica that answered it. */
export interface Crossing {
  method: string;
  path: string;
  replica: number;
}

/** A proxy in front of two replicas of one service. */
export interface CrossingProxy {
  url: string;
  /** The replicas' base URLs (set before the first request). */
  targets: string[];
  /** The replica that takes writes (0 or 1); reads go to the other one. */
  writer: number;
  /** Every request forwarded, in order. */
  log: Crossing[];
  stop(): Promise<void>;
}

/**
 * An HTTP proxy in front of two replicas: writes go to `writer`, reads to the other replica, so a
 * client that writes then reads is always answered by a replica that took no write of its own.
 * Bodies stream through both ways.
 */
export async function startCrossingProxy(): Promise<CrossingProxy> {
  const proxy: CrossingProxy = { url: '', targets: [], writer: 0, log: [], stop: async () => undefined };
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    const replica = write ? proxy.writer : 1 - proxy.writer;
    proxy.log.push({ method: req.method ?? 'GET', path: req.url ?? '/', replica });
    const target = new URL(proxy.targets[replica]);
    const up = http.request({ agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.stop = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}
