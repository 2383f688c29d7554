import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Actor } from '@anvil/auth';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';
import { readArchive } from './support/archive';

let fleet: TransferFleet;
let owner: Actor;
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  fleet = await startTransferFleet({ PROJECT_EXPORT_LIMIT: '3' });
  owner = await fleet.makeUser();
  project = await fleet.makeProject(owner, { description: 'the source' });
});
afterAll(async () => fleet?.stop());

async function post(user: Actor | null, body: Record<string, unknown> = {}) {
  return fleet.transfer.as({ user, project: await fleet.scope(project.id, user) }).post(`/api/v4/projects/${project.id}/export`).send(body);
}

describe('POST /projects/:id/export', () => {
  describe('as the owner', () => {
    it('answers 202, records a queued job and publishes transfer.export.requested', async () => {
      const res = await post(owner, { description: 'exported description' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: '202 Accepted' });
      const row = await fleet.transfer.deps.db('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
      expect(row).toMatchObject({ description: 'exported description', parts_expected: ['identity', 'work-items'] });
      const events = await fleet.transfer.deps.db('outbox').where({ type: 'transfer.export.requested' }).whereRaw("data->>'export_id' = ?", [row.job_id]);
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual({ export_id: row.job_id, project_id: project.id, user_id: owner.id, description: 'exported description', prefix: `exports/${row.job_id}/` });
      const done = await eventually(async () => (await fleet.transfer.deps.db('project_exports').where({ id: row.id }).first()).job_status === 'finished');
      expect(done).toBe(true);
    });
  });

  describe('with bad parameters', () => {
    it('refuses an upload without url', async () => {
      const res = await post(owner, { upload: { http_method: 'PUT' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'upload[url] is missing' });
    });

    it('refuses an http_method other than PUT or POST', async () => {
      const res = await post(owner, { upload: { url: 'https://example.com/x', http_method: 'PATCH' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'upload[http_method] does not have a valid value' });
    });

    it('refuses an upload to an internal address while local requests are not allowed', async () => {
      const maintainer = await fleet.makeUser();
      await fleet.addMember(project.id, maintainer, 40);
      const res = await post(maintainer, { upload: { url: 'http://127.0.0.1:9/x' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { url: ['is blocked: Requests to localhost are not allowed'] } });
      const metadata = await post(maintainer, { upload: { url: 'http://169.254.169.254/latest' } });
      expect(metadata.body).toEqual({ message: { url: ['is blocked: Requests to cloud metadata endpoints are not allowed'] } });
    });
  });

  describe('as a developer, a guest, or anonymous', () => {
    it('answers 403', async () => {
      const dev = await fleet.makeUser();
      await fleet.addMember(project.id, dev, 30);
      expect((await post(dev)).body).toEqual({ message: '403 Forbidden' });
      expect((await post(dev)).status).toBe(403);
      expect((await post(null)).status).toBe(403);
    });
  });

  describe('over the rate limit', () => {
    it('answers 429 with GitLab body and Retry-After', async () => {
      const maintainer = await fleet.makeUser();
      await fleet.addMember(project.id, maintainer, 40);
      for (let i = 0; i < 3; i++) expect((await post(maintainer)).status).toBe(202);
      const res = await post(maintainer);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
      expect(res.headers['retry-after']).toBe('60');
    });
  });
});

describe('POST /projects/:id/export with upload[url] (local requests allowed)', () => {
  let local: TransferFleet;
  afterAll(async () => local?.stop());

  it('sends the finished archive to the receiver with PUT, application/gzip and the given headers', async () => {
    local = await startTransferFleet({ ALLOW_LOCAL_REQUESTS: 'true' });
    const received: { method?: string; headers?: http.IncomingHttpHeaders; body?: Buffer } = {};
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        Object.assign(received, { method: req.method, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const user = await local.makeUser();
      const p = await local.makeProject(user);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/upload?sig=1`;
      const res = await local.transfer.as({ user, project: await local.scope(p.id, user) }).post(`/api/v4/projects/${p.id}/export`)
        .send({ upload: { url, http_method: 'PUT', headers: { 'X-Upload-Token': 'abc' } } });
      expect(res.status).toBe(202);
      await eventually(async () => received.body);
      expect(received.method).toBe('PUT');
      expect(received.headers?.['content-type']).toBe('application/gzip');
      expect(received.headers?.['x-upload-token']).toBe('abc');
      const names = (await readArchive(received.body as Buffer)).map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['./VERSION', './tree/project.json', './tree/project/issues.ndjson']));
    } finally {
      receiver.close();
    }
  });
});
