import type { TestService } from '@anvil/testing';
import { bearer, fixture, Fixture, published, startAlerting } from '../support/alerting';

describe('GET and PUT /projects/:id/alert_management/settings', () => {
  let svc: TestService;
  let f: Fixture;
  const path = () => `/api/v4/projects/${f.projectId}/alert_management/settings`;
  beforeAll(async () => {
    svc = await startAlerting();
  });
  beforeEach(() => {
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('has GitLab’s defaults, then stores what is put', async () => {
    expect((await f.as.maintainer.get(path()).expect(200)).body).toEqual({ create_issue: false, auto_close_incident: true, send_email: false });
    expect((await f.as.maintainer.put(path()).send({ create_issue: true }).expect(200)).body).toEqual({ create_issue: true, auto_close_incident: true, send_email: false });
    expect((await f.as.maintainer.put(path()).send({ auto_close_incident: 'false', send_email: true }).expect(200)).body).toEqual({ create_issue: true, auto_close_incident: false, send_email: true });
    expect((await f.as.maintainer.get(path()).expect(200)).body).toEqual({ create_issue: true, auto_close_incident: false, send_email: true });
  });

  it('puts the settings into the created alert’s event (with who saved them)', async () => {
    await f.as.maintainer.put(path()).send({ create_issue: true }).expect(200);
    const i = await f.integration();
    await f.notify(i.url, { title: 'Incident please' }, bearer(i.token)).expect(200);
    const [event] = (await published(svc, 'alerting.alert.created')).filter((e) => e.data.project_id === f.projectId);
    expect(event.data).toMatchObject({ title: 'Incident please', create_issue: true, auto_close_incident: true, incident_author_id: f.maintainer.id });
  });

  it('validates (400) and needs a maintainer (403/401)', async () => {
    await f.as.maintainer.put(path()).send({}).expect(400, { error: 'create_issue, auto_close_incident, send_email are missing, at least one parameter must be provided' });
    await f.as.maintainer.put(path()).send({ create_issue: 'perhaps' }).expect(400, { error: 'create_issue is invalid' });
    await f.as.reporter.get(path()).expect(403);
    await f.as.reporter.put(path()).send({ create_issue: true }).expect(403);
    await f.as.anonymous.get(path()).expect(401);
  });
});
