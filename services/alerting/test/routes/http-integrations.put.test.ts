import type { TestService } from '@anvil/testing';
import { fixture, Fixture, startAlerting } from '../support/alerting';

describe('PUT /projects/:id/alert_management/http_integrations/:integration_id', () => {
  let svc: TestService;
  let f: Fixture;
  const path = (id: number | string) => `/api/v4/projects/${f.projectId}/alert_management/http_integrations/${id}`;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('renames (the URL follows the name) and deactivates; an inactive integration takes no alerts', async () => {
    const a = await f.integration({ name: 'old' });
    const res = await f.as.maintainer.put(path(a.id)).send({ name: 'New Name', active: false }).expect(200);
    expect(res.body).toMatchObject({ id: a.id, name: 'New Name', active: false, url: a.url.replace('/old/', '/new-name/') });
    expect(res.body).not.toHaveProperty('token');
    await f.notify(res.body.url, { title: 'x' }, `Bearer ${a.token}`).expect(401);
    await f.as.maintainer.put(path(a.id)).send({ active: true }).expect(200);
    await f.notify(res.body.url, { title: 'x' }, `Bearer ${a.token}`).expect(200);
  });

  it('needs a change (400), a known integration (404), a maintainer (403)', async () => {
    const a = await f.integration();
    await f.as.maintainer.put(path(a.id)).send({}).expect(400, { error: 'name, active are missing, at least one parameter must be provided' });
    await f.as.maintainer.put(path(a.id)).send({ name: '' }).expect(400, { error: 'name is empty' });
    await f.as.maintainer.put(path(987654)).send({ name: 'x' }).expect(404, { message: '404 Integration Not Found' });
    await f.as.reporter.put(path(a.id)).send({ name: 'x' }).expect(403);
    await f.as.anonymous.put(path(a.id)).send({ name: 'x' }).expect(401);
  });
});
