import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Actor, INTERNAL_TOKEN_HEADER, type ProjectScope } from '@anvil/auth';
import { identityService } from '@anvil/identity';
import { startService, TEST_INTERNAL_TOKEN, type TestService, testPassword, uniqueName } from '@anvil/testing';
import { projectTransferService } from '../src';
import { settingsConsumers } from '../src/settings/settings-consumer';
import { makeArchive, validEntries } from './support/hostile';
import { eventually } from './support/transfer-fleet';

// identity and two replicas of project-transfer on one schema, over RabbitMQ, the environment giving other values than the administrator's
const schema = uniqueName('project_transfer');
const password = testPassword();
const exchange = `${uniqueName('xfer')}.events`;
let storageDir: string;
let identity: TestService;
const replicas: TestService[] = [];
let root: Actor;

const replica = async (env: Record<string, string> = {}) => {
  const svc = await startService(projectTransferService, {
    amqp: true, schema, password,
    env: { EVENTS_EXCHANGE: exchange, STORAGE_DIR: storageDir, IDENTITY_URL: identity.url, EXPORT_PARTS: 'identity', IMPORT_PARTS: 'identity', MAX_IMPORT_SIZE_MB: '0', PROJECT_EXPORT_LIMIT: '6', ...env },
  });
  replicas.push(svc);
  return svc;
};

beforeAll(async () => {
  storageDir = mkdtempSync(path.join(tmpdir(), 'anvil-transfer-settings-'));
  identity = await startService(identityService, { amqp: true, env: { EVENTS_EXCHANGE: exchange, STORAGE_DIR: storageDir } });
  root = (await identity.raw().get('/internal/v1/users/lookup?ref=root').set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN).expect(200)).body as Actor;
  await replica();
  await replica();
}, 60_000);

afterAll(async () => {
  for (const r of replicas.reverse()) await r.stop().catch(() => undefined);
  await identity?.stop();
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

const setSettings = (body: Record<string, unknown>) => identity.as({ user: root }).put('/api/v4/application/settings').send(body).expect(200);
const upload = (svc: TestService, user: Actor, file: Buffer) =>
  svc.as({ user }).post('/api/v4/projects/import').field('path', uniqueName('imp').replace(/_/g, '-')).attach('file', file, 'export.tar.gz');
/** A valid export archive of about `mb` MB (an incompressible extra file). */
const archiveOf = async (mb: number) => makeArchive([...validEntries(), { name: './tree/project/pad.bin', body: Buffer.from(Array.from({ length: mb * 1024 * 1024 }, () => Math.floor(Math.random() * 256))) }]);

describe('max_import_size changed by an administrator', () => {
  it('refuses an upload over it with 413 on every replica, without a restart, and keeps it across a restart', async () => {
    const big = await archiveOf(2);
    const small = await makeArchive(validEntries());
    await setSettings({ max_import_size: 1 });
    for (const svc of replicas.slice(0, 2)) {
      const res = await eventually(async () => {
        const r = await upload(svc, root, big);
        return r.status === 413 ? r : null;
      });
      expect(res.body).toEqual({ message: '413 Request Entity Too Large' });
      expect((await upload(svc, root, small)).status).toBe(201);
    }
    // a process started after the change (its environment: unlimited) applies the stored value from its first request
    const restarted = await replica({ MAX_IMPORT_SIZE_MB: '0' });
    const res = await upload(restarted, root, big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: '413 Request Entity Too Large' });
    await setSettings({ max_import_size: 0 });
    await eventually(async () => (await upload(restarted, root, big)).status === 201);
  }, 60_000);
});

describe('project_export_limit changed by an administrator', () => {
  it('lets one export per minute through, counted across both replicas', async () => {
    const project = (await identity.as({ user: root }).post('/api/v4/projects').send({ path: uniqueName('exp').replace(/_/g, '-') }).expect(201)).body as { id: number };
    await setSettings({ project_export_limit: 1 });
    const [a, b] = replicas;
    const scope = (await identity.raw().get(`/internal/v1/projects/resolve?ref=${project.id}&user_id=${root.id}`).set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN).expect(200)).body as ProjectScope;
    const exportAs = (svc: TestService, user: Actor) => svc.as({ user, project: scope }).post(`/api/v4/projects/${project.id}/export`);
    const exportFrom = (svc: TestService) => exportAs(svc, root);
    // both replicas follow the change (each probe by another administrator, whose counts stay apart)
    let n = 0;
    await eventually(async () => {
      const other: Actor = { id: 900_000 + Math.floor(Math.random() * 90_000) + n++, username: `probe${n}`, name: 'Probe', admin: true, state: 'active' };
      return (await exportAs(a, other)).status === 202 && (await exportAs(b, other)).status === 429;
    });
    expect((await exportFrom(a)).status).toBe(202);
    const res = await exportFrom(b);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    expect(res.headers['retry-after']).toBe('60');
    expect((await exportFrom(a)).status).toBe(429);
  }, 60_000);
});

describe('outbound_local_requests_whitelist and allow_local_requests_from_web_hooks_and_services', () => {
  let server: http.Server;
  afterAll(async () => new Promise((r) => server?.close(r)));

  it('a loopback import URL refused by default is fetched once its address is allowlisted', async () => {
    const archive = await makeArchive(validEntries());
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': String(archive.length) });
      res.end(req.method === 'HEAD' ? undefined : archive);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.tar.gz`;
    const remote = (svc: TestService) => svc.as({ user: root }).post('/api/v4/projects/remote-import').send({ url, path: uniqueName('rem').replace(/_/g, '-') });
    await setSettings({ allow_local_requests_from_web_hooks_and_services: false, outbound_local_requests_whitelist: [], project_import_limit: 0 });
    const [a, b] = replicas;
    await eventually(async () => (await remote(a)).status === 400);
    expect((await remote(b)).body).toEqual({ message: expect.stringMatching(/^File url is blocked: /) });
    await setSettings({ outbound_local_requests_whitelist: ['127.0.0.1'] });
    for (const svc of [a, b]) await eventually(async () => (await remote(svc)).status === 201);
    await setSettings({ outbound_local_requests_whitelist: [], allow_local_requests_from_web_hooks_and_services: true });
    for (const svc of [a, b]) await eventually(async () => (await remote(svc)).status === 201);
    await setSettings({ allow_local_requests_from_web_hooks_and_services: false });
    for (const svc of [a, b]) await eventually(async () => (await remote(svc)).status === 400);
  }, 60_000);
});

describe('identity.settings.updated delivered out of order', () => {
  it('an older event delivered late changes neither the values in force nor the stored ones', async () => {
    const svc = replicas[0];
    const [, store] = settingsConsumers(svc.deps);
    const event = (at: string, size: number) => ({ id: uniqueName('ev'), type: 'identity.settings.updated', occurred_at: at, producer: 'identity', version: 1, data: { settings: { max_import_size: size }, changes: ['max_import_size'], actor_id: null } });
    const now = Date.now();
    await store.handler(event(new Date(now + 60_000).toISOString(), 1));
    await store.handler(event(new Date(now + 30_000).toISOString(), 0));
    const stored = await svc.deps.db('instance_settings').where({ id: 1 }).first();
    expect(stored.settings.max_import_size).toBe(1);
    expect((await upload(svc, root, await archiveOf(2))).status).toBe(413);
  }, 30_000);
});
