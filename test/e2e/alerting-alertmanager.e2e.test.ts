import { Fleet, startFleet } from '@anvil/testing';
import { client } from './http';
import { RunningAlertmanager, startAlertmanager } from './support/alertmanager';

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A real Prometheus Alertmanager (Debian's package) posts to Anvil's notify URLs through the
 * gateway: Basic with an empty user name to the Prometheus URL, a Bearer key to an HTTP
 * integration's URL, a wrong key to a third receiver. Firing, repeated and resolved messages
 * become one alert with a growing event count, then resolved; the wrong key stores nothing.
 */
describe('Alertmanager → gateway → alerting', () => {
  let fleet: Fleet;
  let am: RunningAlertmanager | undefined;
  let admin: ReturnType<typeof client>;
  let projectId: number;
  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'alerting'] });
    admin = client(fleet.url, fleet.adminToken);
    const group = (await admin.post('/groups', { name: 'Ops', path: 'ops', visibility: 'private' })).body;
    projectId = (await admin.post('/projects', { name: 'Web', path: 'web', namespace_id: group.id, visibility: 'private' })).body.id;
  }, 120_000);
  afterAll(async () => {
    await am?.stop();
    await fleet?.stop();
  });

  const alerts = async () => (await admin.get(`/projects/${projectId}/alert_management/alerts?sort=created_at_asc`)).body as Record<string, any>[];
  const alertTitled = async (title: string) => (await alerts()).find((a) => a.title === title);

  it('delivers firing, repeated and resolved alerts', async () => {
    const integrations = `/projects/${projectId}/alert_management/http_integrations`;
    const prom = (await admin.post(integrations, { name: 'Prometheus', type: 'prometheus' })).body;
    const http = (await admin.post(integrations, { name: 'Alertmanager HTTP', type: 'http' })).body;
    expect(prom.url).toBe(`${fleet.url}/ops/web/prometheus/alerts/notify.json`);
    expect(http.url).toMatch(new RegExp(`^${fleet.url}/ops/web/alerts/notify/alertmanager-http/[0-9a-f]{16}\\.json$`));
    am = await startAlertmanager([
      { name: 'basic', url: prom.url, key: prom.token, auth: 'basic' },
      { name: 'bearer', url: http.url, key: http.token, auth: 'bearer' },
      { name: 'wrong', url: http.url, key: 'f'.repeat(32), auth: 'bearer' },
    ]);

    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const cpu = {
      labels: { alertname: 'AnvilHighCpu', via: 'basic', severity: 'warning', service_environment_name: 'production', instance: 'host-a:9100' },
      annotations: { title: 'CPU usage high on host-a', description: 'idle below 10%', runbook: 'https://runbooks.example/cpu' },
      generatorURL: 'http://127.0.0.1:9090/graph?g0.expr=rate%28node_cpu_seconds_total%5B5m%5D%29+%3C+0.1&g0.tab=1',
      startsAt,
    };
    const disk = { labels: { alertname: 'AnvilDiskFull', via: 'bearer', severity: 's2' }, annotations: { summary: 'Disk full on db-1' }, startsAt };
    const wrong = { labels: { alertname: 'AnvilWrongKey', via: 'wrong' }, annotations: { title: 'Never stored' }, startsAt };
    await am.push([cpu, disk, wrong]);

    const first = await eventually('the firing CPU alert', () => alertTitled('CPU usage high on host-a'));
    expect(first).toMatchObject({ iid: expect.any(Number), status: 'triggered', severity: 'low', monitoring_tool: 'Prometheus', environment: 'production', details: { runbook: 'https://runbooks.example/cpu' } });
    expect(new Date(first.started_at).toISOString()).toBe(startsAt);
    await eventually('the firing disk alert', () => alertTitled('Disk full on db-1'));

    const repeated = await eventually('repeats', async () => {
      const a = await alertTitled('CPU usage high on host-a');
      return a && a.event_count >= 3 ? a : undefined;
    });
    expect(repeated.iid).toBe(first.iid);
    expect((await alerts()).filter((a) => a.title === 'CPU usage high on host-a')).toHaveLength(1);
    expect((await alertTitled('Disk full on db-1'))).toMatchObject({ severity: 'high', status: 'triggered' });

    const endsAt = new Date().toISOString();
    await am.push([{ ...cpu, endsAt }]);
    const resolved = await eventually('the resolution', async () => {
      const a = (await alerts()).find((x) => x.iid === first.iid);
      return a?.status === 'resolved' ? a : undefined;
    });
    expect(new Date(resolved.ended_at).toISOString()).toBe(endsAt);
    expect(resolved.event_count).toBeGreaterThanOrEqual(3);

    expect(await alertTitled('Never stored')).toBeUndefined();
    expect(am.output()).toMatch(/unexpected status code 401/);
  }, 90_000);

  it('refuses hostile notify requests through the gateway with bare 400s and 401s, never a 5xx', async () => {
    const integration = (await admin.post(`/projects/${projectId}/alert_management/http_integrations`, { name: 'Hostile' })).body;
    const post = async (body: string | Buffer, auth: string | null = `Bearer ${integration.token}`, url = integration.url) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body });
      return [res.status, await res.text()];
    };
    expect(await post(JSON.stringify({ title: 'big', pad: 'x'.repeat(1024 * 1024) }))).toEqual([400, '']);
    expect(await post(`{"x":${'['.repeat(150)}${']'.repeat(150)}}`)).toEqual([400, '']);
    expect(await post('{"title":')).toEqual([400, '']);
    expect(await post(JSON.stringify({ title: 'x' }), null)).toEqual([401, '']);
    expect(await post(JSON.stringify({ title: 'x' }), `Basic ${Buffer.from(':wrong').toString('base64')}`)).toEqual([401, '']);
    expect(await post(JSON.stringify({ title: 'x' }), `Bearer ${integration.token}`, integration.url.replace('/ops/web/', '/ops/missing/'))).toEqual([401, '']);
    expect(await post(JSON.stringify({ title: 'fine' }))).toEqual([200, expect.stringMatching(/^\[\{"iid":\d+,"title":"fine"\}\]$/)]);
  }, 60_000);
});
