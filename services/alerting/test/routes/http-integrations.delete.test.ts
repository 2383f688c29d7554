import type { TestService } from '@anvil/testing';
import { fixture, Fixture, startAlerting } from '../support/alerting';

describe('DELETE /projects/:id/alert_management/http_integrations/:integration_id', () => {
  let svc: TestService;
  let f: Fixture;
  const path = (id: number) => `/api/v4/projects/${f.projectId}/alert_management/http_integrations/${id}`;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('deletes (204); its URL answers 401 afterwards and its alerts stay', async () => {
    const a = await f.integration();
    await f.notify(a.url, { title: 'kept' }, `Bearer ${a.token}`).expect(200);
    await f.as.reporter.delete(path(a.id)).expect(403);
    await f.as.maintainer.delete(path(a.id)).expect(204, '');
    await f.as.maintainer.get(path(a.id)).expect(404);
    await f.as.maintainer.delete(path(a.id)).expect(404, { message: '404 Integration Not Found' });
    await f.notify(a.url, { title: 'x' }, `Bearer ${a.token}`).expect(401);
    expect((await f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts`).expect(200)).body.map((x: { title: string }) => x.title)).toEqual(['kept']);
  });

  it('is 401 anonymously', async () => {
    const a = await f.integration();
    await f.as.anonymous.delete(path(a.id)).expect(401);
  });
});
