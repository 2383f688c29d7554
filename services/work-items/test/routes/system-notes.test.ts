import { small, Small } from '../support/small';

describe('system notes on issues', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  /** The issue's notes as `GET …/notes` lists them, oldest first. */
  const notes = async (iid: number) =>
    (await s.on(s.reporter).get(s.path(iid, '/notes?sort=asc')).expect(200)).body as { body: string; system: boolean; author: { id: number } }[];
  const bodies = async (iid: number) => (await notes(iid)).filter((n) => n.system).map((n) => n.body);
  const put = (iid: number, body: Record<string, unknown>) => s.on(s.reporter).put(s.path(iid)).send(body).expect(200);

  describe('PUT /projects/:id/issues/:issue_iid', () => {
    it('writes the assignee change with GitLab\'s text, authored by the actor', async () => {
      const issue = await s.issue();
      await put(issue.iid, { assignee_ids: [s.reporter.id, s.guest.id] });
      const [n] = await notes(issue.iid);
      expect(n).toMatchObject({ body: 'assigned to @reporter and @guest', system: true, author: { id: s.reporter.id }, noteable_iid: issue.iid });
      await put(issue.iid, { assignee_ids: [s.guest.id] });
      expect((await bodies(issue.iid))[1]).toBe('unassigned @reporter');
      const shown = (await s.on(s.reporter).get(s.path(issue.iid)).expect(200)).body;
      expect(shown.user_notes_count).toBe(0);
    });

    it('writes title, description, due date, confidentiality and lock changes in GitLab\'s order', async () => {
      const issue = await s.issue({ title: 'Old title' });
      await put(issue.iid, { title: 'New title', description: 'Details', due_date: '2018-09-20', confidential: true, discussion_locked: true });
      expect(await bodies(issue.iid)).toEqual([
        'changed title from **{-Old-} title** to **{+New+} title**', 'changed the description', 'locked the discussion in this issue',
        'changed due date to September 20, 2018', 'made the issue confidential',
      ]);
      await put(issue.iid, { due_date: '', confidential: false, discussion_locked: false });
      expect((await bodies(issue.iid)).slice(5)).toEqual([
        'unlocked the discussion in this issue', 'removed due date September 20, 2018', 'made the issue visible to everyone',
      ]);
    });

    it('writes checklist notes instead of "changed the description" when only tasks were (un)checked', async () => {
      const issue = await s.issue({ description: '- [ ] write tests\n- [x] ship' });
      await put(issue.iid, { description: '- [x] write tests\n- [ ] ship' });
      expect(await bodies(issue.iid)).toEqual([
        'marked the checklist item **write tests** as completed', 'marked the checklist item **ship** as incomplete',
      ]);
    });

    it('writes no note for state, label and milestone changes (resource events in GitLab)', async () => {
      const issue = await s.issue();
      const milestone = (await s.on(s.reporter).post(`/api/v4/projects/${s.project.id}/milestones`).send({ title: 'm1' }).expect(201)).body;
      await put(issue.iid, { state_event: 'close', labels: 'x,y', milestone_id: milestone.id });
      expect(await notes(issue.iid)).toEqual([]);
    });

    it('writes "mentioned in" on an issue the description mentions, once', async () => {
      const target = await s.issue();
      const source = await s.issue();
      await put(source.iid, { description: `See #${target.iid}` });
      await put(source.iid, { description: `See #${target.iid} again` });
      expect(await bodies(target.iid)).toEqual([`mentioned in issue #${source.iid}`]);
    });

    it('writes "mentioned in" for the description of a new issue too', async () => {
      const target = await s.issue();
      const source = await s.issue({ description: `Blocked by #${target.iid}` });
      expect(await bodies(target.iid)).toEqual([`mentioned in issue #${source.iid}`]);
    });
  });

  describe('time tracking', () => {
    it('writes estimate and spent-time notes', async () => {
      const issue = await s.issue();
      const tt = (suffix: string, body: Record<string, unknown> = {}) => s.on(s.reporter).post(s.path(issue.iid, suffix)).send(body);
      await tt('/time_estimate', { duration: '1h' }).expect(200);
      await tt('/time_estimate', { duration: '2h' }).expect(200);
      await tt('/reset_time_estimate').expect(200);
      await tt('/add_spent_time', { duration: '1h30m' }).expect(201);
      await tt('/add_spent_time', { duration: '-30m' }).expect(201);
      await tt('/reset_spent_time').expect(200);
      expect(await bodies(issue.iid)).toEqual([
        'added time estimate of 1h', 'changed time estimate to 2h from 1h', 'removed time estimate of 2h',
        'added 1h 30m of time spent', 'subtracted 30m of time spent', 'removed time spent',
      ]);
    });
  });

  describe('POST …/notes', () => {
    it('writes "mentioned in" on each other issue a comment mentions, deduplicated, not on itself', async () => {
      const a = await s.issue();
      const b = await s.issue();
      await s.on(s.guest).post(s.path(a.iid, '/notes')).send({ body: `Related to #${b.iid} and #${a.iid} and \`#${b.iid}\`` }).expect(201);
      await s.on(s.guest).post(s.path(a.iid, '/notes')).send({ body: `Again #${b.iid}` }).expect(201);
      expect(await notes(b.iid)).toEqual([expect.objectContaining({ body: `mentioned in issue #${a.iid}`, system: true, author: expect.objectContaining({ id: s.guest.id }) })]);
      expect(await bodies(a.iid)).toEqual([]);
    });
  });
});
