import type { TestService } from '@anvil/testing';
import { bearer, fixture, Fixture, startAlerting } from '../support/alerting';

describe('GET /projects/:id/alert_management/alerts', () => {
  let svc: TestService;
  let f: Fixture;
  const list = (query = '') => f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts${query}`);
  const titles = async (query: string) => (await list(query).expect(200)).body.map((a: { title: string }) => a.title);
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
    const i = await f.integration();
    const post = (body: Record<string, unknown>) => f.notify(i.url, body, bearer(i.token)).expect(200);
    await post({ title: 'CPU hot', severity: 'low', service: 'api', hosts: ['web-1'], start_time: '2026-11-25T01:00:00Z' });
    await post({ title: 'Disk full', severity: 'critical', monitoring_tool: 'probe', description: 'on /var', start_time: '2026-11-25T03:00:00Z' });
    await post({ title: 'Disk full', severity: 'critical', monitoring_tool: 'probe', description: 'on /var', start_time: '2026-11-25T03:00:00Z' });
    await post({ title: 'Net 100%_down', severity: 'info', start_time: '2026-11-25T02:00:00Z' });
    await post({ title: 'Net 100%_down', severity: 'info', end_time: '2026-11-25T02:30:00Z' });
  });
  afterAll(() => svc?.stop());

  it('lists the project’s alerts, newest first, with every field', async () => {
    const res = await list().expect(200);
    expect(res.body.map((a: { iid: number }) => a.iid)).toEqual([3, 2, 1]);
    expect(res.headers).toMatchObject({ 'x-total': '3', 'x-page': '1', 'x-per-page': '20' });
    expect(res.body[1]).toEqual({
      iid: 2, title: 'Disk full', description: 'on /var', severity: 'critical', status: 'triggered', started_at: '2026-11-25T03:00:00.000Z', ended_at: null,
      event_count: 2, fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/), monitoring_tool: 'probe', service: null, hosts: [], environment: null, details: {},
      issue_iid: null, assignee_ids: [], created_at: expect.any(String), updated_at: expect.any(String),
    });
  });

  it.each([
    ['?status=triggered', ['Disk full', 'CPU hot']],
    ['?status=resolved', ['Net 100%_down']],
    ['?status=ignored', []],
    ['?search=disk', ['Disk full']],
    ['?search=web-1', ['CPU hot']],
    ['?search=PROBE', ['Disk full']],
    ['?search=100%25_', ['Net 100%_down']],
    ['?search=%25', ['Net 100%_down']],
    ['?sort=started_at_asc', ['CPU hot', 'Net 100%_down', 'Disk full']],
    ['?sort=severity_desc', ['Disk full', 'CPU hot', 'Net 100%_down']],
    ['?sort=event_count_desc', ['Disk full', 'Net 100%_down', 'CPU hot']],
    ['?sort=status_asc', ['CPU hot', 'Disk full', 'Net 100%_down']],
    ['?per_page=1&page=2', ['Disk full']],
  ])('%s → %j', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });

  it.each([
    ['?status=open', 'status does not have a valid value'],
    ['?sort=title', 'sort does not have a valid value'],
  ])('%s → 400', async (query, error) => {
    await list(query).expect(400, { error });
  });

  it('is 403 for a guest, 401 anonymously; another project sees none of them', async () => {
    await f.as.guest.get(`/api/v4/projects/${f.projectId}/alert_management/alerts`).expect(403, { message: '403 Forbidden' });
    await f.as.anonymous.get(`/api/v4/projects/${f.projectId}/alert_management/alerts`).expect(401);
    const other = fixture(svc);
    expect((await other.as.reporter.get(`/api/v4/projects/${other.projectId}/alert_management/alerts`).expect(200)).body).toEqual([]);
  });
});

describe('GET /projects/:id/alert_management/alerts/:alert_iid', () => {
  let svc: TestService;
  let f: Fixture;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
  });
  afterAll(() => svc?.stop());

  it('shows one alert (200), 404 for an unknown iid, 400 for a bad one, 403 for a guest', async () => {
    const i = await f.integration();
    await f.notify(i.url, { title: 'One', hosts: 'h', service_environment_name: 'prod', extra: { k: [1] } }, bearer(i.token)).expect(200);
    const base = `/api/v4/projects/${f.projectId}/alert_management/alerts`;
    expect((await f.as.reporter.get(`${base}/1`).expect(200)).body).toMatchObject({ iid: 1, title: 'One', hosts: ['h'], environment: 'prod', details: { extra: { k: [1] } } });
    await f.as.reporter.get(`${base}/2`).expect(404, { message: '404 Alert Not Found' });
    await f.as.reporter.get(`${base}/x`).expect(400, { error: 'alert_iid is invalid' });
    await f.as.guest.get(`${base}/1`).expect(403);
  });
});
