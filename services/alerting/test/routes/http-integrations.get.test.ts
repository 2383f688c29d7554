import type { TestService } from '@anvil/testing';
import { fixture, Fixture, startAlerting } from '../support/alerting';

describe('GET /projects/:id/alert_management/http_integrations', () => {
  let svc: TestService;
  let f: Fixture;
  const path = (suffix = '') => `/api/v4/projects/${f.projectId}/alert_management/http_integrations${suffix}`;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('lists the project’s integrations oldest first, paginated, never with their keys', async () => {
    const a = await f.integration({ name: 'one' });
    const b = await f.integration({ name: 'two', type: 'prometheus' });
    await fixture(svc).integration({ name: 'elsewhere' });
    const res = await f.as.maintainer.get(path()).expect(200);
    expect(res.body.map((i: { id: number }) => i.id)).toEqual([a.id, b.id]);
    expect(res.body[0]).toEqual({ ...a, token: undefined });
    expect(res.body.every((i: object) => !('token' in i))).toBe(true);
    expect(res.headers).toMatchObject({ 'x-total': '2', 'x-page': '1', 'x-per-page': '20' });
    const second = await f.as.maintainer.get(path('?per_page=1&page=2')).expect(200);
    expect(second.body.map((i: { id: number }) => i.id)).toEqual([b.id]);
  });

  it('shows one integration (200) and 404 for an unknown one', async () => {
    const a = await f.integration({ name: 'shown' });
    const { token: _token, ...shown } = a;
    expect((await f.as.maintainer.get(path(`/${a.id}`)).expect(200)).body).toEqual(shown);
    await f.as.maintainer.get(path('/424242')).expect(404, { message: '404 Integration Not Found' });
    await f.as.maintainer.get(path('/abc')).expect(400, { error: 'integration_id is invalid' });
  });

  it('is 403 below maintainer and 401 anonymously', async () => {
    await f.as.reporter.get(path()).expect(403, { message: '403 Forbidden' });
    await f.as.guest.get(path()).expect(403);
    await f.as.anonymous.get(path()).expect(401, { message: '401 Unauthorized' });
  });
});
