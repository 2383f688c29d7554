import type { Actor } from '@anvil/auth';
import { published } from '../support/published';
import { small, Small } from '../support/small';
import { AccessLevel } from '../support/world';

describe('thin merge requests', () => {
  let s: Small;
  let dev: Actor;
  beforeAll(async () => {
    s = await small();
    dev = await s.world.user('dev');
    await s.world.member(s.project, dev, AccessLevel.DEVELOPER);
  });
  afterAll(() => s?.svc.stop());

  const mrPath = (suffix = '') => `/api/v4/projects/${s.project.id}/merge_requests${suffix}`;
  let branch = 0;
  const open = async (body: Record<string, unknown>) => (await s.on(dev).post(mrPath()).send({ source_branch: `feature-${++branch}`, target_branch: 'main', title: 'Change', ...body }).expect(201)).body;

  describe('POST /projects/:id/merge_requests', () => {
    it('creates one with GitLab’s fields', async () => {
      const mr = await open({ title: 'Draft: add login', description: 'Closes #1', labels: 'review' });
      expect(mr).toMatchObject({
        iid: expect.any(Number), project_id: s.project.id, state: 'opened', source_branch: `feature-${branch}`, target_branch: 'main',
        draft: true, work_in_progress: true, labels: ['review'], author: { id: dev.id }, source_project_id: s.project.id, target_project_id: s.project.id,
        merge_status: 'unchecked', reference: `!${mr.iid}`, references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `team/proj!${mr.iid}` },
        web_url: `http://127.0.0.1:8080/team/proj/-/merge_requests/${mr.iid}`, user: { can_merge: true },
        time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      });
      expect(mr.sha).toMatch(/^[0-9a-f]{40}$/);
      const events = await published(s.svc, 'work-items.', { actor_id: dev.id });
      expect(events.map((e) => e.type)).toEqual(['work-items.label.created', 'work-items.merge_request.created']);
      expect(events[1].data).toMatchObject({ id: mr.id, iid: mr.iid, project_id: s.project.id, state: 'opened', draft: true, source_branch: `feature-${branch}`, author_id: dev.id });
    });

    it('refuses the same branches (422) and a second open one on the same branches', async () => {
      expect((await s.on(dev).post(mrPath()).send({ source_branch: 'x', target_branch: 'x', title: 't' }).expect(422)).body).toEqual({ message: ["You can't use same project/branch for source and target"] });
      const first = await open({});
      const res = await s.on(dev).post(mrPath()).send({ source_branch: first.source_branch, target_branch: 'main', title: 't' }).expect(422);
      expect(res.body).toEqual({ message: [`Another open merge request already exists for this source branch: !${first.iid}`] });
    });

    it('needs Developer (403 for a reporter) and authentication (401)', async () => {
      await s.on(s.reporter).post(mrPath()).send({ source_branch: 'a', target_branch: 'b', title: 't' }).expect(403, { message: '403 Forbidden' });
      await s.on(null).post(mrPath()).send({ source_branch: 'a', target_branch: 'b', title: 't' }).expect(401, { message: '401 Unauthorized' });
    });
  });

  describe('GET /projects/:id/merge_requests and /:merge_request_iid', () => {
    it('lists and reads them', async () => {
      const mr = await open({ title: 'Listed' });
      const list = await s.on(s.guest).get(`${mrPath()}?state=opened`).expect(200);
      expect(list.body.map((m: { iid: number }) => m.iid)).toContain(mr.iid);
      expect(list.body[0]).not.toHaveProperty('diff_refs');
      const one = await s.on(s.guest).get(mrPath(`/${mr.iid}`)).expect(200);
      expect(one.body).toMatchObject({ iid: mr.iid, title: 'Listed', user: { can_merge: false } });
      await s.on(s.guest).get(mrPath('/9999')).expect(404, { message: '404 Merge Request Not Found' });
    });
  });

  describe('related_merge_requests and closed_by', () => {
    it('relates merge requests that mention the issue and lists those that close it', async () => {
      const issue = await s.issue({ title: 'Bug' });
      const other = await s.issue({ title: 'Other' });
      const closing = await open({ title: 'Fix it', description: `Fixes #${issue.iid}` });
      const mentioning = await open({ title: 'Touches', description: `Related to #${issue.iid}, and closes #${other.iid}` });
      const related = await s.on(s.guest).get(s.path(issue.iid, '/related_merge_requests')).expect(200);
      expect(related.body.map((m: { iid: number }) => m.iid).sort()).toEqual([closing.iid, mentioning.iid].sort());
      expect(related.body[0]).toHaveProperty('diff_refs');
      expect(related.headers['x-total']).toBe('2');
      const closedBy = await s.on(s.guest).get(s.path(issue.iid, '/closed_by')).expect(200);
      expect(closedBy.body.map((m: { iid: number }) => m.iid)).toEqual([closing.iid]);
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.merge_requests_count).toBe(2);
    });

    it('closes the issue when the merge request merges, by the merger', async () => {
      const issue = await s.issue({ title: 'To close' });
      const mr = await open({ description: `Resolves ${'http://127.0.0.1:8080'}/team/proj/-/issues/${issue.iid}` });
      expect((await s.on(s.guest).get(s.path(issue.iid, '/closed_by')).expect(200)).body).toHaveLength(1);
      const merged = await s.on(dev).put(mrPath(`/${mr.iid}/merge`)).send({}).expect(200);
      expect(merged.body).toMatchObject({ state: 'merged', merged_by: { id: dev.id } });
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body).toMatchObject({ state: 'closed', closed_by: { id: dev.id } });
      await s.on(dev).put(mrPath(`/${mr.iid}/merge`)).send({}).expect(405, { message: '405 Method Not Allowed' });
      expect((await published(s.svc, 'work-items.merge_request.', { id: mr.id })).map((e) => e.type)).toEqual(['work-items.merge_request.created', 'work-items.merge_request.merged']);
      expect((await published(s.svc, 'work-items.issue.closed', { id: issue.id }))[0].data).toMatchObject({ actor_id: dev.id });
    });

    it('relinks when the description changes, and closes merge requests with state_event', async () => {
      const issue = await s.issue();
      const mr = await open({ description: `Closes #${issue.iid}` });
      expect((await s.on(dev).put(mrPath(`/${mr.iid}`)).send({ description: 'nothing' }).expect(200)).body).toMatchObject({ iid: mr.iid, description: 'nothing', state: 'opened' });
      expect((await s.on(s.guest).get(s.path(issue.iid, '/related_merge_requests')).expect(200)).body).toEqual([]);
      const closed = await s.on(dev).put(mrPath(`/${mr.iid}`)).send({ state_event: 'close' }).expect(200);
      expect(closed.body).toMatchObject({ state: 'closed', closed_by: { id: dev.id } });
      const events = await published(s.svc, 'work-items.merge_request.', { id: mr.id });
      expect(events.map((e) => [e.type, e.data.state])).toEqual([
        ['work-items.merge_request.created', 'opened'], ['work-items.merge_request.updated', 'opened'], ['work-items.merge_request.closed', 'closed'],
      ]);
    });

    it('is 404 on an issue the caller may not see', async () => {
      const secret = await s.issue({ confidential: true });
      await s.on(s.outsider).get(s.path(secret.iid, '/related_merge_requests')).expect(404, { message: '404 Not found' });
      await s.on(s.outsider).get(s.path(secret.iid, '/closed_by')).expect(404, { message: '404 Not found' });
    });
  });
});
