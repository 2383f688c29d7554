import type { TestService } from '@anvil/testing';
import { basic, bearer, fixture, Fixture, published, startAlerting } from '../support/alerting';
import { amMessage, firing } from '../support/payloads';

describe('POST /:namespace/:project/alerts/notify/:name/:endpoint_identifier.json (native format)', () => {
  let svc: TestService;
  let f: Fixture;
  let integration: Awaited<ReturnType<Fixture['integration']>>;
  const alerts = () => f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts?sort=created_at_asc`).expect(200).then((r) => r.body);
  beforeAll(async () => {
    svc = await startAlerting();
  });
  beforeEach(async () => {
    f = fixture(svc);
    integration = await f.integration();
  });
  afterAll(() => svc?.stop());

  it('creates an alert (200, [{iid, title}]) with Bearer, and the same payload repeats it', async () => {
    const body = { title: 'Disk full', start_time: '2026-11-25T10:00:00Z', hosts: 'db-1', severity: 'low', runbook: 'https://rb' };
    const res = await f.notify(integration.url, body, bearer(integration.token)).expect(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual([{ iid: 1, title: 'Disk full' }]);
    await f.notify(integration.url, { ...body, start_time: '2026-11-25T10:05:00Z', hosts: ['db-2'] }, basic(integration.token)).expect(200, [{ iid: 1, title: 'Disk full' }]);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ iid: 1, status: 'triggered', event_count: 2, severity: 'low', hosts: ['db-1'], details: { runbook: 'https://rb' }, started_at: '2026-11-25T10:00:00.000Z' });
    expect((await published(svc, 'alerting.alert.')).filter((e) => e.data.project_id === f.projectId).map((e) => e.type)).toEqual(['alerting.alert.created']);
  });

  it('resolves the open alert with end_time, then the same payload opens a new alert', async () => {
    await f.notify(integration.url, { title: 'Flaky', fingerprint: ['svc', 7] }, bearer(integration.token)).expect(200, [{ iid: 1, title: 'Flaky' }]);
    await f.notify(integration.url, { title: 'Flaky', fingerprint: ['svc', 7], end_time: '2026-11-25T11:00:00Z' }, bearer(integration.token)).expect(200, [{ iid: 1, title: 'Flaky' }]);
    await f.notify(integration.url, { title: 'Flaky', fingerprint: ['svc', 7] }, bearer(integration.token)).expect(200, [{ iid: 2, title: 'Flaky' }]);
    const list = await alerts();
    expect(list.map((a: { iid: number; status: string; ended_at: string | null }) => [a.iid, a.status, a.ended_at])).toEqual([[1, 'resolved', '2026-11-25T11:00:00.000Z'], [2, 'triggered', null]]);
    const types = (await published(svc, 'alerting.alert.')).filter((e) => e.data.project_id === f.projectId).map((e) => e.type);
    expect(types).toEqual(['alerting.alert.created', 'alerting.alert.resolved', 'alerting.alert.created']);
  });

  it('answers 400 to a resolving payload that matches no open alert, storing nothing', async () => {
    await f.notify(integration.url, { title: 'never open', end_time: '2026-11-25T11:00:00Z' }, bearer(integration.token)).expect(400, '');
    expect(await alerts()).toEqual([]);
  });

  it('takes the URL without .json, the legacy URL (oldest HTTP integration) and the key as `token` query parameter', async () => {
    await f.notify(integration.url.replace(/\.json$/, ''), { title: 'a' }, bearer(integration.token)).expect(200);
    await f.notify(`http://x/${f.path}/alerts/notify.json`, { title: 'b' }, bearer(integration.token)).expect(200);
    await f.notify(`http://x/${f.path}/alerts/notify`, { title: 'c' }, bearer(integration.token)).expect(200);
    await f.notify(`${integration.url}?token=${integration.token}`, { title: 'd' }).expect(200);
    expect((await alerts()).map((a: { title: string }) => a.title)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads the webhook format at an HTTP integration URL too (chosen by shape)', async () => {
    const res = await f.notify(integration.url, amMessage([firing, { ...firing, annotations: { title: 'second' } }]), bearer(integration.token)).expect(200);
    expect(res.body).toEqual([{ iid: 1, title: 'CPU usage high on host-a' }, { iid: 2, title: 'second' }]);
  });

  it('ignores the `:name` segment: only the endpoint identifier selects', async () => {
    await f.notify(integration.url.replace('/http-endpoint/', '/anything/'), { title: 'x' }, bearer(integration.token)).expect(200);
  });
});

describe('POST /:namespace/:project/prometheus/alerts/notify.json (webhook format)', () => {
  let svc: TestService;
  let f: Fixture;
  let prom: Awaited<ReturnType<Fixture['integration']>>;
  beforeAll(async () => {
    svc = await startAlerting();
    f = fixture(svc);
    prom = await f.integration({ name: 'Prometheus', type: 'prometheus' });
  });
  afterAll(() => svc?.stop());

  it('creates one alert per element, repeats count, `status: resolved` resolves, and a repeat after that opens anew', async () => {
    const other = { ...firing, labels: { alertname: 'Other', severity: 'warning' }, annotations: { title: 'Other one' } };
    expect((await f.notify(prom.url, amMessage([firing, other]), basic(prom.token)).expect(200)).body).toEqual([
      { iid: 1, title: 'CPU usage high on host-a' }, { iid: 2, title: 'Other one' },
    ]);
    await f.notify(prom.url, amMessage([firing]), basic(prom.token)).expect(200, [{ iid: 1, title: 'CPU usage high on host-a' }]);
    const resolved = { ...firing, status: 'resolved', endsAt: '2026-11-22T01:10:00.5Z' };
    await f.notify(prom.url, amMessage([resolved, other], 'firing'), basic(prom.token)).expect(200);
    const one = (await f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts/1`).expect(200)).body;
    expect(one).toMatchObject({
      status: 'resolved', event_count: 2, ended_at: '2026-11-22T01:10:00.500Z', severity: 'high', monitoring_tool: 'Prometheus', environment: 'production',
      details: { runbook: 'https://runbooks.example/cpu', summary: 'CPU summary' },
    });
    expect((await f.as.reporter.get(`/api/v4/projects/${f.projectId}/alert_management/alerts/2`).expect(200)).body).toMatchObject({ status: 'triggered', event_count: 2, severity: 'low' });
    await f.notify(prom.url, amMessage([firing]), basic(prom.token)).expect(200, [{ iid: 3, title: 'CPU usage high on host-a' }]);
  });

  it('answers 200 [] to a resolution of nothing (Alertmanager retries nothing)', async () => {
    await f.notify(prom.url, amMessage([{ ...firing, startsAt: '2020-01-01T00:00:00Z', status: 'resolved' }], 'resolved'), bearer(prom.token)).expect(200, []);
  });

  it('does not open the Prometheus URL with an HTTP integration’s key', async () => {
    const http = await f.integration();
    await f.notify(prom.url, amMessage([firing]), bearer(http.token)).expect(401, '');
  });
});
