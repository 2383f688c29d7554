import { Fleet, startFleet } from '@anvil/testing';
import { client } from './http';

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
 * Incidents across services over RabbitMQ: with `create_issue` on, an alert posted through the
 * gateway opens an incident issue in work-items, which alerting links back (`issue_iid`); the
 * alert's resolution closes it (`auto_close_incident`). Notify answers never tell whether a
 * project exists.
 */
describe('alert → incident issue → closed', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items', 'alerting'] });
  }, 120_000);
  afterAll(() => fleet?.stop());

  it('opens, links and closes the incident', async () => {
    const admin = client(fleet.url, fleet.adminToken);
    const project = (await admin.post('/projects', { name: 'Shop', path: 'shop', visibility: 'private' })).body;
    const base = `/projects/${project.id}/alert_management`;
    expect((await admin.put(`${base}/settings`, { create_issue: true })).body).toEqual({ create_issue: true, auto_close_incident: true, send_email: false });
    const integration = (await admin.post(`${base}/http_integrations`, { name: 'Checks' })).body;
    const post = (body: unknown, key = integration.token, url = integration.url) =>
      fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const firing = {
      status: 'firing', labels: { alertname: 'CheckoutErrors', severity: 'major' }, startsAt: '2026-11-25T10:00:00.5Z', endsAt: '0001-01-01T00:00:00Z',
      annotations: { title: 'Checkout failing', description: '5xx above 5%', service_incident_markdown: 'Page the **payments** team' }, generatorURL: '',
    };
    const message = (alert: unknown, status = 'firing') => ({
      receiver: 'anvil', status, alerts: [alert], groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://am', version: '4', groupKey: '{}:{}',
    });
    const res = await post(message(firing));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ iid: 1, title: 'Checkout failing' }]);

    const alert = await eventually('the incident link', async () => {
      const a = (await admin.get(`${base}/alerts/1`)).body;
      return a.issue_iid ? a : undefined;
    });
    const issue = (await admin.get(`/projects/${project.id}/issues/${alert.issue_iid}`)).body;
    expect(issue).toMatchObject({ title: 'Checkout failing', issue_type: 'incident', state: 'opened', author: { username: 'root' } });
    expect(issue.description).toContain('**Severity:** high');
    expect(issue.description).toMatch(/---\n\nPage the \*\*payments\*\* team$/);

    expect((await post(message({ ...firing, status: 'resolved', endsAt: '2026-11-25T10:30:00Z' }, 'resolved'))).status).toBe(200);
    await eventually('the incident closed', async () => {
      const i = (await admin.get(`/projects/${project.id}/issues/${alert.issue_iid}`)).body;
      return i.state === 'closed' ? i : undefined;
    });

    const wrongKey = await post(message(firing), 'f'.repeat(32));
    const noProject = await post(message(firing), integration.token, integration.url.replace('/shop/', '/no-such-project/'));
    expect([wrongKey.status, await wrongKey.text(), noProject.status, await noProject.text()]).toEqual([401, '', 401, '']);
  }, 90_000);
});
