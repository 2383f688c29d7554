import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityClient, INTERNAL_TOKEN_HEADER } from '../src';

describe('IdentityClient', () => {
  let server: http.Server;
  let base: string;
  const seen: { token?: string; path?: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ token: req.headers[INTERNAL_TOKEN_HEADER] as string, path: req.url });
      if (req.url?.startsWith('/internal/v1/users/lookup?ref=slow')) return; // never answers
      if (req.url?.startsWith('/internal/v1/users/lookup?ref=root')) {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ id: 1, username: 'root', name: 'A', admin: true, state: 'active' }));
      }
      res.statusCode = 404;
      res.end('{"message":"404 Not Found"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends the service token and reads answers', async () => {
    const c = new IdentityClient(base, 'svc-token');
    expect(await c.lookupUser('root')).toMatchObject({ username: 'root' });
    expect(await c.lookupUser('ghost')).toBeNull();
    expect(seen[0]).toEqual({ token: 'svc-token', path: '/internal/v1/users/lookup?ref=root' });
  });

  it('gives up on a hung identity instead of hanging its caller', async () => {
    const c = new IdentityClient(base, 'svc-token', 200);
    const t = Date.now();
    await expect(c.lookupUser('slow')).rejects.toThrow();
    expect(Date.now() - t).toBeLessThan(2000);
  });
});
