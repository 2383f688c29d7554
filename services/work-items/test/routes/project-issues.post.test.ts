import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { AccessLevel, ProjectInfo, startWorkItems, World } from '../support/world';

describe('POST /projects/:id/issues', () => {
  let svc: TestService;
  let world: World;
  let owner: Actor;
  let reporter: Actor;
  let guest: Actor;
  let project: ProjectInfo;

  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
    owner = await world.user('owner');
    reporter = await world.user('reporter');
    guest = await world.user('guest');
    const group = await world.group('acme');
    project = await world.project('app', { group });
    await world.member(group, owner, AccessLevel.OWNER);
    await world.member(project, reporter, AccessLevel.REPORTER);
    await world.member(project, guest, AccessLevel.GUEST);
  });
  afterAll(() => svc?.stop());

  const path = () => `/api/v4/projects/${project.id}/issues`;

  describe('as a reporter', () => {
    it('creates an issue with the next iid and the full entity', async () => {
      const res = await world.onProject(project, reporter).post(path()).send({
        title: 'Broken login', description: '- [x] one\n- [ ] two', labels: ['bug', 'ui'], assignee_ids: [guest.id], due_date: '2030-01-31', confidential: false,
      }).expect(201);
      const b = res.body;
      expect(b).toMatchObject({
        iid: 1, project_id: project.id, title: 'Broken login', state: 'opened', labels: ['bug', 'ui'], type: 'ISSUE', issue_type: 'issue',
        closed_at: null, closed_by: null, milestone: null, due_date: '2030-01-31', confidential: false, discussion_locked: null,
        user_notes_count: 0, merge_requests_count: 0, upvotes: 0, downvotes: 0, subscribed: true, severity: 'UNKNOWN',
        task_completion_status: { count: 2, completed_count: 1 }, has_tasks: true, task_status: '1 of 2 tasks completed',
        time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
        references: { short: '#1', relative: '#1', full: `${project.path_with_namespace}#1` },
        web_url: `http://127.0.0.1:8080/${project.path_with_namespace}/-/issues/1`,
      });
      expect(b.author).toEqual({ id: reporter.id, username: 'reporter', name: 'reporter', state: 'active', locked: false, avatar_url: null, web_url: 'http://127.0.0.1:8080/reporter' });
      expect(b.assignees.map((u: { id: number }) => u.id)).toEqual([guest.id]);
      expect(b.assignee.id).toBe(guest.id);
      expect(b._links).toEqual({
        self: `http://127.0.0.1:8080/api/v4/projects/${project.id}/issues/1`,
        notes: `http://127.0.0.1:8080/api/v4/projects/${project.id}/issues/1/notes`,
        award_emoji: `http://127.0.0.1:8080/api/v4/projects/${project.id}/issues/1/award_emoji`,
        project: `http://127.0.0.1:8080/api/v4/projects/${project.id}`,
        closed_as_duplicate_of: null,
      });
      const second = await world.onProject(project, reporter).post(path()).send({ title: 'Second', labels: 'bug,backend' }).expect(201);
      expect(second.body.iid).toBe(2);
      expect(second.body.labels).toEqual(['backend', 'bug']);
    });

    it('writes the created event to the outbox in the same transaction', async () => {
      const res = await world.onProject(project, reporter).post(path()).send({ title: 'Evented' }).expect(201);
      const row = await svc.deps.db('outbox').where({ type: 'work-items.issue.created' }).whereRaw("data->>'id' = ?", [String(res.body.id)]).first();
      expect(row).toBeDefined();
      expect(row.data).toMatchObject({ iid: res.body.iid, project_id: project.id, title: 'Evented', actor_id: reporter.id, state: 'opened' });
    });
  });

  describe('as a guest', () => {
    it('creates the issue but drops the metadata only reporters may set', async () => {
      const res = await world.onProject(project, guest).post(path()).send({ title: 'From a guest', labels: 'bug', assignee_ids: [owner.id] }).expect(201);
      expect(res.body.labels).toEqual([]);
      expect(res.body.assignees).toEqual([]);
    });
  });

  describe('owner-only options', () => {
    it('lets the owner choose the iid and answers 409 for a taken one', async () => {
      const res = await world.onProject(project, owner).post(path()).send({ title: 'Chosen', iid: 50, created_at: '2020-01-02T03:04:05.678Z' }).expect(201);
      expect(res.body.iid).toBe(50);
      expect(res.body.created_at).toBe('2020-01-02T03:04:05.678Z');
      const dup = await world.onProject(project, owner).post(path()).send({ title: 'Again', iid: 50 }).expect(409);
      expect(dup.body).toEqual({ message: 'Duplicated issue' });
      const next = await world.onProject(project, owner).post(path()).send({ title: 'After' }).expect(201);
      expect(next.body.iid).toBe(51);
    });

    it('ignores iid and created_at from a reporter', async () => {
      const res = await world.onProject(project, reporter).post(path()).send({ title: 'Not chosen', iid: 900 }).expect(201);
      expect(res.body.iid).not.toBe(900);
    });
  });

  describe('validation', () => {
    it('requires a title', async () => {
      const res = await world.onProject(project, reporter).post(path()).send({ description: 'x' }).expect(400);
      expect(res.body).toEqual({ error: 'title is missing' });
    });

    it('rejects an unknown issue_type', async () => {
      const res = await world.onProject(project, reporter).post(path()).send({ title: 'x', issue_type: 'epic' }).expect(400);
      expect(res.body).toEqual({ error: 'issue_type does not have a valid value' });
    });

    it('rejects a blank title and a too long one with model errors', async () => {
      expect((await world.onProject(project, reporter).post(path()).send({ title: '  ' }).expect(400)).body).toEqual({ message: { title: ["can't be blank"] } });
      expect((await world.onProject(project, reporter).post(path()).send({ title: 'x'.repeat(256) }).expect(400)).body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
    });

    it('rejects milestone_id together with milestone', async () => {
      const res = await world.onProject(project, reporter).post(path()).send({ title: 'x', milestone_id: 1, milestone: 'v1' }).expect(400);
      expect(res.body).toEqual({ error: 'milestone_id, milestone are mutually exclusive' });
    });
  });

  describe('anonymous', () => {
    it('answers 401', async () => {
      await world.onProject(project, null).post(path()).send({ title: 'x' }).expect(401, { message: '401 Unauthorized' });
    });
  });
});
