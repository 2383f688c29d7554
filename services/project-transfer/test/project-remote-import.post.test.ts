import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@anvil/auth';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const LIGHT = readFileSync(path.join(FIXTURES, 'light.tar.gz'));

/** A loopback file server: each path answers with its own headers and body. */
interface Served { status?: number; headers?: Record<string, string>; body?: Buffer }
let server: http.Server;
let base: string;
const routes = new Map<string, Served>();
const hits: string[] = [];

let local: TransferFleet;
let guarded: TransferFleet;
let importer: Actor;
let guardedUser: Actor;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const r = routes.get(req.url ?? '') ?? { status: 404, body: Buffer.from('nope') };
    res.writeHead(r.status ?? 200, { 'Content-Type': 'application/gzip', 'Content-Length': String(r.body?.length ?? 0), ...r.headers });
    if (req.method === 'HEAD') res.end();
    else res.end(r.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  local = await startTransferFleet({ ALLOW_LOCAL_REQUESTS: 'true', MAX_IMPORT_SIZE_MB: '1', PROJECT_IMPORT_LIMIT: '0' });
  importer = await local.makeUser();
  guarded = await startTransferFleet({ PROJECT_IMPORT_LIMIT: '0' });
  guardedUser = await guarded.makeUser();
});
afterAll(async () => {
  await local?.stop();
  await guarded?.stop();
  await new Promise((r) => server?.close(r));
});

function post(fleet: TransferFleet, user: Actor | null, body: Record<string, unknown>) {
  return fleet.transfer.as({ user }).post('/api/v4/projects/remote-import').send(body);
}

const uploads = (fleet: TransferFleet) => {
  const dir = path.join(fleet.storageDir, 'imports/uploads');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tar.gz')) : [];
};

describe('POST /projects/remote-import', () => {
  it('fetches the archive from the URL and imports it like an upload', async () => {
    routes.set('/light.tar.gz', { body: LIGHT });
    const res = await post(local, importer, { url: `${base}/light.tar.gz`, path: 'remote-light', override_params: { description: 'fetched' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path: 'remote-light', description: 'fetched', import_status: 'scheduled', import_type: 'gitlab_project', failed_relations: [] });
    expect(hits.filter((h) => h.endsWith('/light.tar.gz'))).toEqual(['HEAD /light.tar.gz', 'GET /light.tar.gz']);
    const status = await eventually(async () => {
      const body = (await local.transfer.as({ user: importer, project: await local.scope(res.body.id, importer) }).get(`/api/v4/projects/${res.body.id}/import`)).body;
      return ['finished', 'failed'].includes(body.import_status) && body;
    });
    expect(status.import_status).toBe('finished');
    const issues = await local.workItems.deps.db('issues').where({ project_id: res.body.id }).pluck('iid');
    expect(issues).toEqual([20]);
  });

  it('follows a redirect to an allowed URL and re-checks each target', async () => {
    routes.set('/moved', { status: 302, headers: { Location: '/light.tar.gz' } });
    expect((await post(local, importer, { url: `${base}/moved`, path: 'remote-moved' })).status).toBe(201);
    routes.set('/to-metadata', { status: 302, headers: { Location: 'http://169.254.169.254/latest/meta-data' } });
    const res = await post(local, importer, { url: `${base}/to-metadata`, path: 'remote-meta' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'File url is blocked: Requests to cloud metadata endpoints are not allowed' });
  });

  it("answers GitLab's 400 for a wrong content type, a length of 0 or over max_import_size, and an S3 URL", async () => {
    routes.set('/page.html', { body: Buffer.from('<html></html>'), headers: { 'Content-Type': 'text/html' } });
    routes.set('/empty.tar.gz', { body: Buffer.alloc(0) });
    routes.set('/huge.tar.gz', { body: Buffer.alloc(10), headers: { 'Content-Length': String(2 * 1024 * 1024) } });
    routes.set('/bucket/x.tar.gz', { body: LIGHT, headers: { Server: 'AmazonS3', 'x-amz-request-id': 'abc' } });
    const answers = await Promise.all(['/page.html', '/empty.tar.gz', '/bucket/x.tar.gz'].map((u, i) => post(local, importer, { url: `${base}${u}`, path: `bad-${i}` })));
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [400, { message: "Content type 'text/html' not allowed. (Allowed: application/gzip, application/x-tar, application/x-gzip)" }],
      [400, { message: 'Content length is too small (should be at least 1 Byte)' }],
      [400, { message: 'To import from AWS S3 use `projects/remote-import-s3`' }],
    ]);
    const big = await post(local, importer, { url: `${base}/huge.tar.gz`, path: 'bad-huge' });
    expect([big.status, big.body]).toEqual([400, { message: 'Content length is too big (should be at most 1 MB)' }]);
    expect(await local.identity.deps.db('projects').whereIn('path', ['bad-0', 'bad-1', 'bad-2', 'bad-huge']).count({ n: '*' }).first()).toEqual({ n: '0' });
  });

  it('cuts a body that grows past max_import_size although its HEAD promised less, and keeps nothing of it', async () => {
    const before = uploads(local).length;
    const liar = http.createServer((req, res) => {
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': '1000' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/gzip' });
      const chunk = Buffer.alloc(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 4 * 1024 * 1024) res.once('drain', () => { sent += chunk.length; pump(); });
        else res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    await new Promise<void>((r) => liar.listen(0, '127.0.0.1', r));
    try {
      const res = await post(local, importer, { url: `http://127.0.0.1:${(liar.address() as AddressInfo).port}/a.tar.gz`, path: 'liar' });
      expect([res.status, res.body]).toEqual([400, { message: 'Content length is too big (should be at most 1 MB)' }]);
      expect(uploads(local).length).toBe(before);
    } finally {
      liar.closeAllConnections();
      await new Promise((r) => liar.close(r));
    }
  });

  it('refuses loopback, IPv4-mapped, numeric and metadata addresses and other schemes when local requests are off', async () => {
    routes.set('/light.tar.gz', { body: LIGHT });
    const port = (server.address() as AddressInfo).port;
    const cases: [string, string][] = [
      [`${base}/light.tar.gz`, 'Requests to localhost are not allowed'],
      [`http://[::ffff:127.0.0.1]:${port}/light.tar.gz`, 'Requests to localhost are not allowed'],
      [`http://0x7f000001:${port}/light.tar.gz`, 'Requests to localhost are not allowed'],
      [`http://2130706433:${port}/light.tar.gz`, 'Requests to localhost are not allowed'],
      ['http://169.254.169.254/latest/meta-data', 'Requests to cloud metadata endpoints are not allowed'],
      ['http://[::ffff:a9fe:a9fe]/', 'Requests to cloud metadata endpoints are not allowed'],
      ['http://10.1.2.3/a.tar.gz', 'Requests to the local network are not allowed'],
      ['ftp://example.com/a.tar.gz', 'Only allowed schemes are http, https'],
    ];
    const before = hits.length;
    for (const [url, reason] of cases) {
      const res = await post(guarded, guardedUser, { url, path: 'blocked' });
      expect([url, res.status, res.body]).toEqual([url, 400, { message: `File url is blocked: ${reason}` }]);
    }
    expect(hits.length).toBe(before);
  });

  it('answers 400 for a missing url or path, 401 to an anonymous caller', async () => {
    expect((await post(local, importer, { path: 'x' })).body).toEqual({ error: 'url is missing' });
    expect((await post(local, importer, { url: `${base}/light.tar.gz` })).status).toBe(400);
    expect((await post(local, null, { url: `${base}/light.tar.gz`, path: 'x' })).status).toBe(401);
  });
});
