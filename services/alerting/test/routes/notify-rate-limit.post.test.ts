import { CONTEXT_HEADER } from '@anvil/auth';
import { bootService, type RunningService } from '@anvil/runtime';
import { projectScope, signFor, TEST_INTERNAL_TOKEN, testDatabaseUrl, testKeys, type TestService } from '@anvil/testing';
import request from 'supertest';
import { alertingService } from '../../src';
import { bearer, fixture, startAlerting } from '../support/alerting';

describe('POST notify URLs with ALERT_NOTIFY_LIMIT', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting({ ALERT_NOTIFY_LIMIT: '3' });
  });
  afterAll(() => svc?.stop());

  it('answers 429 with Retry-After past the limit per project and minute; refused keys do not count', async () => {
    const f = fixture(svc);
    const i = await f.integration();
    for (let n = 0; n < 5; n++) await f.notify(i.url, { title: 'x' }, bearer('wrong')).expect(401);
    for (let n = 0; n < 3; n++) await f.notify(i.url, { title: `a${n}` }, bearer(i.token)).expect(200);
    const res = await f.notify(i.url, { title: 'over' }, bearer(i.token)).expect(429);
    expect(res.text).toBe('');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await svc.deps.db('alerts').where({ project_id: f.projectId, title: 'over' })).toEqual([]);
    const other = fixture(svc);
    const j = await other.integration();
    await other.notify(j.url, { title: 'b' }, bearer(j.token)).expect(200);
  });
});

describe('ALERT_NOTIFY_LIMIT across replicas', () => {
  let svc: TestService;
  let second: RunningService;
  beforeAll(async () => {
    svc = await startAlerting({ ALERT_NOTIFY_LIMIT: '2' });
    // a second replica on the same schema
    const env = {
      DATABASE_URL: testDatabaseUrl(), GATEWAY_PUBLIC_KEY: testKeys.publicKey, INTERNAL_API_TOKEN: TEST_INTERNAL_TOKEN, STORAGE_DIR: String(svc.deps.config.STORAGE_DIR),
      LOG_LEVEL: 'silent', ALERT_NOTIFY_LIMIT: '2', SHUTDOWN_GRACE_MS: '0',
    };
    second = await bootService(alertingService, { env, schema: svc.deps.schema, port: 0, bus: svc.deps.bus, storage: svc.deps.storage });
  });
  afterAll(async () => {
    await second?.stop();
    await svc?.stop();
  });

  it('counts the requests of every replica together', async () => {
    const f = fixture(svc);
    const i = await f.integration();
    await f.notify(i.url, { title: 'one' }, bearer(i.token)).expect(200);
    const u = new URL(i.url);
    const path = `/api/v4/projects/${f.projectId}${u.pathname.slice(`/${f.path}`.length)}`;
    const ctx = signFor('POST', path, { user: null, auth: 'none', project: projectScope(f.projectId, { path_with_namespace: f.path }) }, 'alerting');
    const viaSecond = (title: string) =>
      request(second.server).post(path).set(CONTEXT_HEADER, ctx).set('Authorization', bearer(i.token)).set('Content-Type', 'application/json').send(JSON.stringify({ title }));
    expect((await viaSecond('two')).status).toBe(200);
    expect((await viaSecond('three')).status).toBe(429);
    await f.notify(i.url, { title: 'four' }, bearer(i.token)).expect(429);
  });
});

describe('POST notify URLs without a limit (the default)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  afterAll(() => svc?.stop());

  it('never answers 429', async () => {
    const f = fixture(svc);
    const i = await f.integration();
    for (let n = 0; n < 30; n++) await f.notify(i.url, { title: 'x' }, bearer(i.token)).expect(200);
  });
});
