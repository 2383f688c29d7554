import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A group hook receiver on loopback: answers 200 and keeps which issues were announced as opened. */
export interface Receiver {
  url: string;
  /** Distinct iids of the project's Issue Hooks with `action: open` (redeliveries counted once). */
  openedIids(projectId: number): Set<number>;
  close(): Promise<void>;
}

export function startReceiver(): Promise<Receiver> {
  const opened = new Map<number, Set<number>>();
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      try {
        const body = JSON.parse(data);
        const attrs = body.object_attributes ?? {};
        if (req.headers['x-gitlab-event'] === 'Issue Hook' && attrs.action === 'open') {
          const set = opened.get(attrs.project_id) ?? new Set<number>();
          set.add(attrs.iid);
          opened.set(attrs.project_id, set);
        }
      } catch {
        /* not JSON: counted as nothing */
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        openedIids: (projectId) => opened.get(projectId) ?? new Set(),
        close: () => new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}
