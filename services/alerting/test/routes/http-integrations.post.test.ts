import { hashToken } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { fixture, Fixture, startAlerting } from '../support/alerting';

describe('POST /projects/:id/alert_management/http_integrations', () => {
  let svc: TestService;
  let f: Fixture;
  const path = () => `/api/v4/projects/${f.projectId}/alert_management/http_integrations`;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  beforeEach(() => {
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  describe('as a maintainer', () => {
    it('creates an HTTP integration (201) with its URL and key, storing only the key’s digest', async () => {
      const res = await f.as.maintainer.post(path()).send({ name: 'My Tool!', type: 'http', active: true }).expect(201);
      const row = await svc.deps.db('alert_integrations').where({ id: res.body.id }).first();
      expect(res.body).toEqual({
        id: expect.any(Number), name: 'My Tool!', type: 'http', active: true,
        url: `http://127.0.0.1:8080/${f.path}/alerts/notify/my-tool/${row.endpoint_identifier}.json`,
        token: expect.stringMatching(/^[0-9a-f]{32}$/), payload_example: '{}', payload_attribute_mapping: [],
        created_at: expect.any(String), updated_at: expect.any(String),
      });
      expect(row.endpoint_identifier).toMatch(/^[0-9a-f]{16}$/);
      expect(row.token_digest).toBe(hashToken(res.body.token));
      expect(JSON.stringify(row)).not.toContain(res.body.token);
    });

    it('creates the Prometheus integration at the project’s Prometheus URL, once (409 for a second)', async () => {
      const res = await f.as.maintainer.post(path()).send({ name: 'Prom', type: 'prometheus' }).expect(201);
      expect(res.body).toMatchObject({ type: 'prometheus', active: true, url: `http://127.0.0.1:8080/${f.path}/prometheus/alerts/notify.json` });
      await f.as.maintainer.post(path()).send({ name: 'Prom 2', type: 'prometheus' }).expect(409, { message: 'Multiple Prometheus integrations are not supported' });
    });

    it('defaults type to http and active to true; inactive on request', async () => {
      expect((await f.as.maintainer.post(path()).send({ name: 'a' }).expect(201)).body).toMatchObject({ type: 'http', active: true });
      expect((await f.as.maintainer.post(path()).send({ name: 'b', active: false }).expect(201)).body).toMatchObject({ active: false });
    });

    it.each([
      [{}, 'name is missing'],
      [{ name: '' }, 'name is empty'],
      [{ name: 'x'.repeat(256) }, 'name does not have a valid value'],
      [{ name: 'x', type: 'pagerduty' }, 'type does not have a valid value'],
      [{ name: 'x', active: 'maybe' }, 'active is invalid'],
      [{ name: { a: 1 } }, 'name is invalid'],
    ])('refuses %j (400 %s)', async (body, error) => {
      await f.as.maintainer.post(path()).send(body).expect(400, { error });
    });
  });

  describe('below maintainer', () => {
    it('is 403 for a reporter, 401 anonymously', async () => {
      await f.as.reporter.post(path()).send({ name: 'x' }).expect(403, { message: '403 Forbidden' });
      await f.as.anonymous.post(path()).send({ name: 'x' }).expect(401, { message: '401 Unauthorized' });
      expect(await svc.deps.db('alert_integrations').where({ project_id: f.projectId })).toEqual([]);
    });
  });

  it('refuses a request that did not come through the gateway (401)', async () => {
    await svc.raw().post(path()).send({ name: 'x' }).expect(401);
  });
});

describe('POST /projects/:id/alert_management/http_integrations/:integration_id/reset_token', () => {
  let svc: TestService;
  let f: Fixture;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('issues a new key (200) and the old one stops opening the URL', async () => {
    const created = await f.integration();
    const res = await f.as.maintainer.post(`/api/v4/projects/${f.projectId}/alert_management/http_integrations/${created.id}/reset_token`).expect(200);
    expect(res.body).toMatchObject({ id: created.id, url: created.url, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(res.body.token).not.toBe(created.token);
    await f.notify(created.url, { title: 'x' }, `Bearer ${created.token}`).expect(401);
    await f.notify(created.url, { title: 'x' }, `Bearer ${res.body.token}`).expect(200);
  });

  it('is 404 for an unknown integration, 403 for a reporter', async () => {
    await f.as.maintainer.post(`/api/v4/projects/${f.projectId}/alert_management/http_integrations/999999/reset_token`).expect(404, { message: '404 Integration Not Found' });
    const created = await f.integration();
    await f.as.reporter.post(`/api/v4/projects/${f.projectId}/alert_management/http_integrations/${created.id}/reset_token`).expect(403);
  });

  it('is 404 for another project’s integration', async () => {
    const created = await f.integration();
    const other = fixture(svc);
    await other.as.maintainer.post(`/api/v4/projects/${other.projectId}/alert_management/http_integrations/${created.id}/reset_token`).expect(404);
  });
});
