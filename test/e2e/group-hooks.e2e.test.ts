import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Fleet, startFleet } from '@anvil/testing';
import { client } from './http';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

/** A hook receiver on loopback that records every request and answers 200. */
function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(data) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

async function eventually<T>(fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Group hooks through the gateway, with identity and work-items as separate processes over real
 * RabbitMQ: an issue created in a project of the group reaches the hook's receiver as GitLab's
 * Issue Hook; internal addresses are refused while the instance settings forbid them.
 */
describe('group hooks end to end', () => {
  let fleet: Fleet;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    fleet = await startFleet({ services: ['identity', 'work-items'] });
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await receiver?.close();
  });

  it('delivers an Issue Hook to a loopback receiver once local requests are allowed', async () => {
    const admin = client(fleet.url, fleet.adminToken);
    expect((await admin.put('/application/settings', { allow_local_requests_from_web_hooks_and_services: true })).body).toMatchObject({ allow_local_requests_from_web_hooks_and_services: true });
    const group = await admin.post('/groups', { name: 'Hooked', path: 'hooked' });
    const sub = await admin.post('/groups', { name: 'Team', path: 'team', parent_id: group.body.id });
    const project = await admin.post('/projects', { name: 'Site', path: 'site', namespace_id: sub.body.id });
    expect(project.status).toBe(201);
    const hook = await admin.post(`/groups/${group.body.id}/hooks`, { url: receiver.url, token: 'hook-secret', issues_events: true, note_events: true, push_events: false });
    expect(hook.status).toBe(201);
    expect(hook.body).toMatchObject({ url: receiver.url, issues_events: true, group_id: group.body.id, alert_status: 'executable' });
    expect(hook.body).not.toHaveProperty('token');

    const issue = await eventually(async () => {
      const r = await admin.post(`/projects/${project.body.id}/issues`, { title: 'Hook me' });
      return r.status === 201 ? r : undefined;
    });
    const got = await eventually(async () => receiver.received.find((r) => r.headers['x-gitlab-event'] === 'Issue Hook'));
    expect(got.headers).toMatchObject({
      'x-gitlab-token': 'hook-secret',
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^GitLab\/\d+\.\d+/),
      'x-gitlab-instance': fleet.url,
      'x-gitlab-event-uuid': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'x-gitlab-webhook-uuid': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
      host: new URL(receiver.url).host,
    });
    expect(got.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { username: 'root' },
      project: { id: project.body.id, path_with_namespace: 'hooked/team/site' },
      object_attributes: { id: issue.body.id, iid: issue.body.iid, title: 'Hook me', action: 'open', state: 'opened', project_id: project.body.id },
    });

    const note = await admin.post(`/projects/${project.body.id}/issues/${issue.body.iid}/notes`, { body: 'Looks good' });
    expect(note.status).toBe(201);
    const noted = await eventually(async () => receiver.received.find((r) => r.headers['x-gitlab-event'] === 'Note Hook'));
    expect(noted.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      project_id: project.body.id,
      object_attributes: { id: note.body.id, note: 'Looks good', noteable_type: 'Issue', action: 'create' },
      issue: { id: issue.body.id, iid: issue.body.iid },
    });

    const log = await eventually(async () => {
      const r = await admin.get(`/groups/${group.body.id}/hooks/${hook.body.id}/events`);
      return r.body.length ? r.body : undefined;
    });
    expect(log.find((l: { trigger: string }) => l.trigger === 'issue_hooks')).toMatchObject({ response_status: '200', response_body: 'thanks', request_headers: { 'X-Gitlab-Token': '[REDACTED]' } });
  }, 60_000);

  it('refuses hooks to loopback, cloud metadata and IPv4-mapped addresses while local requests are forbidden', async () => {
    const admin = client(fleet.url, fleet.adminToken);
    expect((await admin.put('/application/settings', { allow_local_requests_from_web_hooks_and_services: false })).status).toBe(200);
    const group = await admin.post('/groups', { name: 'Guarded', path: 'guarded' });
    for (const url of [receiver.url, 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:127.0.0.1]/', 'http://0x7f000001/', 'http://localhost/']) {
      const r = await admin.post(`/groups/${group.body.id}/hooks`, { url, issues_events: true });
      expect({ url, status: r.status, body: r.body }).toEqual({ url, status: 422, body: { error: 'Invalid url given' } });
    }
  });
});
