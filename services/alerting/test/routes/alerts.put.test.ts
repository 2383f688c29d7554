import type { TestService } from '@anvil/testing';
import { bearer, fixture, Fixture, published, startAlerting } from '../support/alerting';

describe('PUT /projects/:id/alert_management/alerts/:alert_iid', () => {
  let svc: TestService;
  let f: Fixture;
  let post: (body: Record<string, unknown>) => Promise<unknown>;
  const path = (iid: number | string) => `/api/v4/projects/${f.projectId}/alert_management/alerts/${iid}`;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
    const i = await f.integration();
    post = (body) => f.notify(i.url, body, bearer(i.token)).expect(200);
  });
  afterAll(() => svc?.stop());

  it('acknowledges, assigns, resolves (ended_at set, event), and re-opens', async () => {
    await post({ title: 'A', fingerprint: 'a' });
    expect((await f.as.reporter.put(path(1)).send({ status: 'acknowledged', assignee_ids: [5, 6, 5] }).expect(200)).body).toMatchObject({ status: 'acknowledged', assignee_ids: [5, 6], ended_at: null });
    const resolved = (await f.as.reporter.put(path(1)).send({ status: 'resolved' }).expect(200)).body;
    expect(resolved).toMatchObject({ status: 'resolved', ended_at: expect.any(String) });
    expect((await f.as.reporter.put(path(1)).send({ status: 'triggered', assignee_ids: [] }).expect(200)).body).toMatchObject({ status: 'triggered', ended_at: null, assignee_ids: [] });
    const types = (await published(svc, 'alerting.alert.')).filter((e) => e.data.iid === 1 && e.data.project_id === f.projectId).map((e) => e.type);
    expect(types).toEqual(['alerting.alert.created', 'alerting.alert.updated', 'alerting.alert.resolved', 'alerting.alert.updated']);
  });

  it('refuses to re-open beside an unresolved alert with the same fingerprint (400)', async () => {
    await post({ title: 'B', fingerprint: 'b' });
    const first = (await f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts?search=B&status=triggered`).expect(200)).body[0];
    await f.as.reporter.put(path(first.iid)).send({ status: 'resolved' }).expect(200);
    await post({ title: 'B', fingerprint: 'b' });
    await f.as.reporter.put(path(first.iid)).send({ status: 'triggered' }).expect(400, { message: { fingerprint: ['Cannot have multiple unresolved alerts'] } });
  });

  it('validates (400), finds (404) and authorises (403/401)', async () => {
    await post({ title: 'C', fingerprint: 'c' });
    await f.as.reporter.put(path(1)).send({}).expect(400, { error: 'status, assignee_ids are missing, at least one parameter must be provided' });
    await f.as.reporter.put(path(1)).send({ status: 'closed' }).expect(400, { error: 'status does not have a valid value' });
    await f.as.reporter.put(path(1)).send({ assignee_ids: ['x'] }).expect(400, { error: 'assignee_ids is invalid' });
    await f.as.reporter.put(path(999)).send({ status: 'ignored' }).expect(404, { message: '404 Alert Not Found' });
    await f.as.guest.put(path(1)).send({ status: 'ignored' }).expect(403);
    await f.as.anonymous.put(path(1)).send({ status: 'ignored' }).expect(401);
  });
});
