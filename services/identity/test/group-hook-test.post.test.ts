import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addMember, asOnGroup, Identity, makeGroup, makeProject, makeUser, startIdentity } from './helpers';

interface Hit {
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
    hits.push({ headers: req.headers, body: JSON.parse(data || '{}') });
    res.writeHead(status).end(`answered ${status}`);
  });
});
let hookUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  svc = await startIdentity({ HOOK_DELIVERY_WORKER: 'false', APPLICATION_SETTINGS: JSON.stringify({ allow_local_requests_from_web_hooks_and_services: true }) });
});
afterAll(async () => {
  await svc?.stop();
  await new Promise((r) => receiver.close(r));
});
beforeEach(() => {
  hits.length = 0;
  status = 200;
});

async function hookedGroup(withProject = true) {
  const owner = await makeUser(svc);
  const group = await makeGroup(svc, owner);
  const project = withProject ? await makeProject(svc, owner, { namespace_id: group.id, path: 'app' }) : null;
  const api = await asOnGroup(svc, owner, group.id);
  const hook = (await api.post(`/api/v4/groups/${group.id}/hooks`).send({ url: hookUrl, token: 'secret-token' }).expect(201)).body;
  return { owner, group, project, hook, api };
}

describe('POST /groups/:id/hooks/:hook_id/test/:trigger', () => {
  describe('as the Owner', () => {
    it('sends a Push Hook sample built on the group’s project and answers 201, logging the delivery', async () => {
      const { owner, group, project, hook, api } = await hookedGroup();
      const res = await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(201);
      expect(res.body).toEqual({ message: '201 Created' });
      expect(hits).toHaveLength(1);
      expect(hits[0].headers['x-gitlab-event']).toBe('Push Hook');
      expect(hits[0].headers['x-gitlab-token']).toBe('secret-token');
      expect(hits[0].body).toMatchObject({ object_kind: 'push', event_name: 'push', ref: 'refs/heads/main', user_id: owner.id, user_username: owner.username, project_id: project?.id, commits: [], total_commits_count: 0 });
      expect(hits[0].body.project).toMatchObject({ id: project?.id, path_with_namespace: `${group.full_path}/app` });
      const events = await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}/events`).expect(200);
      expect(events.body.map((e: { trigger: string; response_status: string }) => [e.trigger, e.response_status])).toEqual([['push_hooks', '200']]);
    });

    it('sends a Tag Push Hook for tag_push_events', async () => {
      const { group, hook, api } = await hookedGroup();
      await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/tag_push_events`).expect(201);
      expect(hits[0].headers['x-gitlab-event']).toBe('Tag Push Hook');
      expect(hits[0].body).toMatchObject({ object_kind: 'tag_push', event_name: 'tag_push' });
    });

    it('returns 422 with the receiver’s body when it answers other than 2xx', async () => {
      const { group, hook, api } = await hookedGroup();
      status = 500;
      const res = await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(422);
      expect(res.body).toEqual({ message: 'answered 500' });
    });

    it('runs a disabled hook and re-enables it on a 2xx answer', async () => {
      const { group, hook, api } = await hookedGroup();
      await svc.deps.db('web_hooks').where({ id: hook.id }).update({ recent_failures: 40, disabled_until: null });
      expect((await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200)).body.alert_status).toBe('disabled');
      await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(201);
      expect(hits).toHaveLength(1);
      expect((await api.get(`/api/v4/groups/${group.id}/hooks/${hook.id}`).expect(200)).body.alert_status).toBe('executable');
    });

    it('returns 422 when the group has no project', async () => {
      const { group, hook, api } = await hookedGroup(false);
      const res = await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(422);
      expect(res.body).toEqual({ message: 'Ensure the group has a project with commits.' });
      expect(hits).toEqual([]);
    });

    it('returns 422 for triggers without a sample (GitLab’s messages) and 400 for an unknown trigger', async () => {
      const { group, hook, api } = await hookedGroup();
      const at = (t: string) => `/api/v4/groups/${group.id}/hooks/${hook.id}/test/${t}`;
      expect((await api.post(at('confidential_note_events')).expect(422)).body).toEqual({ message: 'Testing not available for this hook' });
      expect((await api.post(at('wiki_page_events')).expect(422)).body).toEqual({ message: 'Ensure the wiki is enabled and has pages.' });
      expect((await api.post(at('member_events')).expect(400)).body).toEqual({ error: 'trigger does not have a valid value' });
      expect(hits).toEqual([]);
    });

    it('returns 404 for a hook of another group', async () => {
      const { group, api } = await hookedGroup();
      const other = await hookedGroup();
      const res = await api.post(`/api/v4/groups/${group.id}/hooks/${other.hook.id}/test/push_events`).expect(404);
      expect(res.body).toEqual({ message: '404 Not found' });
    });

    it('returns 429 after five tests a minute', async () => {
      const { group, hook, api } = await hookedGroup();
      for (let i = 0; i < 5; i++) await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(201);
      const res = await api.post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(429);
      expect(res.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
      expect(hits).toHaveLength(5);
    });
  });

  describe('as a Maintainer', () => {
    it('returns 403', async () => {
      const { group, hook } = await hookedGroup();
      const maintainer = await makeUser(svc);
      await addMember(svc, 'groups', group.id, maintainer, 40);
      const res = await (await asOnGroup(svc, maintainer, group.id)).post(`/api/v4/groups/${group.id}/hooks/${hook.id}/test/push_events`).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      expect(hits).toEqual([]);
    });
  });
});
