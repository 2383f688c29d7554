import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterFailure } from '../src/hooks/hook';
import { hookLogStore } from '../src/hooks/hook-log-store';
import { deliverNext, enqueueDeliveries, MAX_ATTEMPTS } from '../src/hooks/delivery-worker';
import { addMember, asOnGroup, Identity, makeGroup, makeProject, makeUser, startIdentity } from './helpers';

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

let svc: Identity;
let status = 200;
const hits: Hit[] = [];
const receiver = http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => (data += c));
  req.on('end', () => {
    hits.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(data || '{}') });
    res.writeHead(status, status === 302 ? { location: '/elsewhere' } : {}).end(`status ${status}`);
  });
});
let hookUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // deliveries are driven by the tests (deliverNext), not by a background worker
  svc = await startIdentity({ HOOK_DELIVERY_WORKER: 'false', APPLICATION_SETTINGS: JSON.stringify({ allow_local_requests_from_web_hooks_and_services: true }) });
});
afterAll(async () => {
  await svc?.stop();
  await new Promise((r) => receiver.close(r));
});
beforeEach(async () => {
  hits.length = 0;
  status = 200;
  await svc.deps.db('web_hook_deliveries').delete();
});

/** Waits for the consumer to queue deliveries, then runs them all. */
async function deliverAll(expected = 1): Promise<void> {
  for (let i = 0; i < 100 && Number((await svc.deps.db('web_hook_deliveries').count({ n: '*' }).first())?.n) < expected; i++) await new Promise((r) => setTimeout(r, 50));
  while (await deliverNext(svc.deps.db, 'http://127.0.0.1:8080'));
}

async function hookedGroup(flags: Record<string, boolean>) {
  const owner = await makeUser(svc);
  const group = await makeGroup(svc, owner);
  const api = await asOnGroup(svc, owner, group.id);
  const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: hookUrl, token: 'tok', push_events: false, ...flags }).expect(201)).body;
  return { owner, group, hook, api };
}

describe('group hook delivery', () => {
  it('sends a Member Hook for each membership in a subgroup (its creator’s, then the added one) to the ancestor group’s hook', async () => {
    const { owner, group } = await hookedGroup({ member_events: true });
    const sub = await makeGroup(svc, owner, { parent_id: group.id, path: 'sub' });
    const user = await makeUser(svc);
    await addMember(svc, 'groups', sub.id, user, 30);
    await deliverAll(2);
    const hit = hits.find((h) => h.headers['x-gitlab-event'] === 'Member Hook' && h.body.user_id === user.id);
    expect(hit?.headers['x-gitlab-token']).toBe('tok');
    expect(hit?.body).toMatchObject({ event_name: 'user_add_to_group', group_id: sub.id, group_path: 'sub', user_id: user.id, user_username: user.username, group_access: 'Developer', user_email: '[REDACTED]' });
  });

  it('sends Subgroup and Project Hooks to the parent, and nothing for switches that are off', async () => {
    const { owner, group } = await hookedGroup({ subgroup_events: true, project_events: true });
    const sub = await makeGroup(svc, owner, { parent_id: group.id, path: 'child' });
    const project = await makeProject(svc, owner, { namespace_id: sub.id, path: 'app' });
    await addMember(svc, 'groups', group.id, await makeUser(svc), 10);
    await deliverAll(2);
    expect(hits.map((h) => h.headers['x-gitlab-event']).sort()).toEqual(['Project Hook', 'Subgroup Hook']);
    expect(hits.find((h) => h.headers['x-gitlab-event'] === 'Subgroup Hook')?.body).toMatchObject({ event_name: 'subgroup_create', group_id: sub.id, parent_group_id: group.id, full_path: `${group.full_path}/child` });
    expect(hits.find((h) => h.headers['x-gitlab-event'] === 'Project Hook')?.body).toMatchObject({ event_name: 'project_create', project_id: project.id, path_with_namespace: `${group.full_path}/child/app` });
  });

  it('logs each attempt and does not follow redirects (a 3xx counts as delivered)', async () => {
    const { owner, group, hook, api } = await hookedGroup({ subgroup_events: true });
    status = 302;
    await makeGroup(svc, owner, { parent_id: group.id, path: 'moved' });
    await deliverAll();
    expect(hits.map((h) => h.path)).toEqual(['/hook']);
    const log = (await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}/events`).expect(200)).body;
    expect(log[0]).toMatchObject({ trigger: 'subgroup_hooks', response_status: '302', request_headers: { 'X-Gitlab-Token': '[REDACTED]', 'X-Gitlab-Event': 'Subgroup Hook' } });
  });

  it('refuses at delivery an address that has become internal, logging an internal error', async () => {
    const { owner, group, hook } = await hookedGroup({ subgroup_events: true });
    await svc.deps.db('application_settings').update({ settings: JSON.stringify({ allow_local_requests_from_web_hooks_and_services: false }) });
    try {
      await makeGroup(svc, owner, { parent_id: group.id, path: 'blocked' });
      await deliverAll();
    } finally {
      await svc.deps.db('application_settings').update({ settings: JSON.stringify({ allow_local_requests_from_web_hooks_and_services: true }) });
    }
    expect(hits).toEqual([]);
    const [log] = await svc.deps.db('web_hook_logs').where({ web_hook_id: hook.id });
    expect(log).toMatchObject({ response_status: 'internal error', internal_error_message: 'URL is blocked: Requests to localhost are not allowed' });
    expect(await svc.deps.db('web_hook_deliveries').where({ web_hook_id: hook.id }).first()).toMatchObject({ attempts: 1 });
  });

  it('retries a failed delivery later, and disables a hook that keeps failing', async () => {
    const { owner, group, hook, api } = await hookedGroup({ subgroup_events: true });
    status = 500;
    await makeGroup(svc, owner, { parent_id: group.id, path: 'failing' });
    await deliverAll();
    const pending = await svc.deps.db('web_hook_deliveries').where({ web_hook_id: hook.id }).first();
    expect(pending.attempts).toBe(1);
    expect(new Date(pending.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 10_000);
    for (let i = 2; i <= 4; i++) {
      await svc.deps.db('web_hook_deliveries').update({ next_attempt_at: new Date(0) });
      await deliverNext(svc.deps.db, 'http://127.0.0.1:8080');
    }
    const read = (await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200)).body;
    expect(read.alert_status).toBe('temporarily_disabled');
    expect(new Date(read.disabled_until).getTime()).toBeGreaterThan(Date.now() + 50_000);
    await svc.deps.db('web_hook_deliveries').update({ next_attempt_at: new Date(0) });
    await deliverNext(svc.deps.db, 'http://127.0.0.1:8080');
    expect(hits).toHaveLength(4);
    expect(await svc.deps.db('web_hook_deliveries').where({ web_hook_id: hook.id })).toEqual([]);
    expect(MAX_ATTEMPTS).toBe(5);
  });

  it('sends the rendered custom template instead of the payload, and URL variables and custom headers', async () => {
    const owner = await makeUser(svc);
    const group = await makeGroup(svc, owner);
    await (await asOnGroup(svc, owner, group.id))
      .post(`/api/v4/groups/${group.id}/hooks`)
      .send({
        url: hookUrl.replace('/hook', '/{part}'), url_variables: [{ key: 'part', value: 'custom' }], custom_headers: [{ key: 'X-Extra', value: 'yes' }, { key: 'X-Gitlab-Event', value: 'spoofed' }],
        subgroup_events: true, push_events: false, custom_webhook_template: '{"text":"{{name}} in {{parent_full_path}}","id":{{group_id}}}',
      })
      .expect(201);
    const sub = await makeGroup(svc, owner, { parent_id: group.id, path: 'tmpl' });
    await deliverAll();
    expect(hits[0]).toMatchObject({ path: '/custom', headers: { 'x-extra': 'yes', 'x-gitlab-event': 'Subgroup Hook' }, body: { text: `tmpl in ${group.full_path}`, id: sub.id } });
  });

  it('re-enables a hook on a successful delivery', async () => {
    const { owner, group, hook, api } = await hookedGroup({ subgroup_events: true });
    await svc.deps.db('web_hooks').where({ id: hook.id }).update({ recent_failures: 3 });
    await makeGroup(svc, owner, { parent_id: group.id, path: 'healthy' });
    await deliverAll();
    expect((await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200)).body).toMatchObject({ alert_status: 'executable', disabled_until: null });
    expect((await svc.deps.db('web_hooks').where({ id: hook.id }).first()).recent_failures).toBe(0);
  });

  it('delivers nothing to a permanently disabled hook', async () => {
    const { owner, group, hook, api } = await hookedGroup({ subgroup_events: true });
    await svc.deps.db('web_hooks').where({ id: hook.id }).update({ recent_failures: 40 });
    expect((await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200)).body.alert_status).toBe('disabled');
    await makeGroup(svc, owner, { parent_id: group.id, path: 'ignored' });
    await new Promise((r) => setTimeout(r, 300));
    await deliverAll(0);
    expect(hits).toEqual([]);
  });
});

describe('POST /groups/:id/hooks/:hook_id/events/:hook_log_id/resend', () => {
  it('sends the logged payload again with the same Idempotency-Key (201), 422 on failure or a changed URL, 404 for an unknown log', async () => {
    const { owner, group, hook, api } = await hookedGroup({ subgroup_events: true });
    status = 500;
    await makeGroup(svc, owner, { parent_id: group.id, path: 'again' });
    await deliverAll();
    const [log] = (await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}/events`).expect(200)).body;
    expect(log.response_status).toBe('500');
    expect((await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/events/${log.id}/resend`).expect(422)).body).toEqual({ message: 'status 500' });
    status = 200;
    expect((await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/events/${log.id}/resend`).expect(201)).body).toEqual({ response_status: 200 });
    expect(new Set(hits.map((h) => h.headers['idempotency-key'])).size).toBe(1);
    expect(hits[2].body).toEqual(hits[0].body);
    await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/events/999999/resend`).expect(404);
    await api.put(`/api/v4/groups/${group.id}/hooks/${hook.id}`).send({ url: `${hookUrl}/moved` }).expect(200);
    expect((await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/events/${log.id}/resend`).expect(422)).body).toEqual({ message: 'The hook URL has changed, and this log entry cannot be retried' });
    await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/events/${log.id}/resend`).expect(422);
    // the sixth resend within a minute by the same user on the same group
    const limited = await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/events/${log.id}/resend`).expect(429);
    expect(limited.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
  });
});

describe('delivery logs', () => {
  it('are kept 14 days', async () => {
    const { hook } = await hookedGroup({ subgroup_events: true });
    const base = { web_hook_id: hook.id, trigger: 'subgroup_hooks', url: hookUrl, url_hash: 'h', response_status: '200', execution_duration: 0 };
    await svc.deps.db('web_hook_logs').insert([{ ...base, created_at: new Date(Date.now() - 15 * 86400_000) }, { ...base, created_at: new Date(Date.now() - 13 * 86400_000) }]);
    await hookLogStore.prune(svc.deps.db);
    expect(await svc.deps.db('web_hook_logs').where({ web_hook_id: hook.id }).count({ n: '*' }).first()).toEqual({ n: '1' });
  });
});

describe('work-items events', () => {
  const issue = (projectId: number, confidential: boolean) => ({
    id: 900, iid: 7, project_id: projectId, title: 'Secret', description: null, state: 'opened', confidential, issue_type: 'issue', author_id: 1,
    assignee_ids: [], labels: ['bug'], milestone_id: null, due_date: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', closed_at: null, actor_id: 1,
  });
  const envelope = (type: string, data: unknown) => ({ id: `${Math.random()}`, type, occurred_at: new Date().toISOString(), producer: 'work-items', version: 1, data });
  const queued = async (type: string, data: unknown) => svc.deps.db.transaction((trx) => enqueueDeliveries(trx, envelope(type, data), 'http://127.0.0.1:8080'));

  it('sends a confidential issue only to hooks with confidential_issues_events, as Confidential Issue Hook', async () => {
    const open = await hookedGroup({ issues_events: true });
    const conf = await hookedGroup({ confidential_issues_events: true });
    const p1 = await makeProject(svc, open.owner, { namespace_id: open.group.id });
    const p2 = await makeProject(svc, conf.owner, { namespace_id: conf.group.id });
    expect(await queued('work-items.issue.created', issue(p1.id, true))).toBe(0);
    expect(await queued('work-items.issue.closed', issue(p2.id, true))).toBe(1);
    while (await deliverNext(svc.deps.db, 'http://127.0.0.1:8080'));
    expect(hits.map((h) => h.headers['x-gitlab-event'])).toEqual(['Confidential Issue Hook']);
    expect(hits[0].body).toMatchObject({ object_kind: 'issue', event_type: 'confidential_issue', object_attributes: { action: 'close', confidential: true, labels: [{ title: 'bug' }] } });
  });

  it('sends an internal note as Confidential Note Hook and skips system notes', async () => {
    const { owner, group } = await hookedGroup({ confidential_note_events: true, note_events: true });
    const project = await makeProject(svc, owner, { namespace_id: group.id });
    const note = { id: 5, noteable_type: 'Issue', noteable_id: 900, noteable_iid: 7, project_id: project.id, group_id: null, author_id: owner.id, body: 'psst', system: false, internal: true, created_at: 'x', updated_at: 'x', actor_id: owner.id };
    expect(await queued('work-items.note.created', { ...note, system: true })).toBe(0);
    expect(await queued('work-items.note.created', note)).toBe(1);
    while (await deliverNext(svc.deps.db, 'http://127.0.0.1:8080'));
    expect(hits[0].headers['x-gitlab-event']).toBe('Confidential Note Hook');
    expect(hits[0].body).toMatchObject({ object_kind: 'note', event_type: 'confidential_note', issue: { iid: 7 }, object_attributes: { note: 'psst', action: 'create' } });
  });
});

describe('afterFailure (WebHooks::AutoDisabling)', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const minutes = (d: Date | null) => (d ? (d.getTime() - now.getTime()) / 60_000 : null);
  it.each([
    [0, 1, null], [2, 3, null], [3, 4, 1], [4, 5, 2], [5, 6, 4], [13, 14, 1024], [14, 15, 1440], [38, 39, 1440], [39, 40, null], [40, 40, null],
  ])('after %d failures: %d failures, disabled for %p minutes', (before, after, mins) => {
    const next = afterFailure({ recentFailures: before }, now);
    expect({ failures: next.recentFailures, minutes: minutes(next.disabledUntil) }).toEqual({ failures: after, minutes: mins });
  });
});
