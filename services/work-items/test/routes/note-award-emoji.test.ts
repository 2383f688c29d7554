import { awardEvents, awardJson, storedAwards } from '../support/award-emoji';
import { small, Small } from '../support/small';

describe('award emoji on notes of issues and merge requests', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  const noteAwards = (iid: number, noteId: number | string, suffix = '') => s.path(iid, `/notes/${noteId}/award_emoji${suffix}`);
  const comment = async (iid: number, body: Record<string, unknown> = {}, who = s.reporter): Promise<{ id: number }> =>
    (await s.on(who).post(s.path(iid, '/notes')).send({ body: 'A comment', ...body }).expect(201)).body;
  const storedNote = async (type: string, id: number, columns: Record<string, unknown> = {}): Promise<{ id: number }> =>
    (await s.svc.deps.db('notes').insert({ noteable_type: type, noteable_id: id, project_id: s.project.id, author_id: s.reporter.id, body: 'x', ...columns }).returning('id'))[0];
  const award = async (iid: number, noteId: number, who: Small['guest'], name: string) => (await s.on(who).post(noteAwards(iid, noteId)).send({ name }).expect(201)).body;

  describe('POST /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', () => {
    it('awards the note (201, awardable_type Note), leaves the issue’s votes alone and writes the awarded event', async () => {
      const issue = await s.issue();
      const note = await comment(issue.iid);
      const res = await s.on(s.guest).post(noteAwards(issue.iid, note.id)).send({ name: '+1' }).expect(201);
      expect(res.body).toEqual(awardJson(s.guest, 'thumbsup', 'Note', note.id));
      expect(await storedAwards(s.svc, 'Note', note.id)).toEqual([{ id: res.body.id, name: 'thumbsup', user_id: s.guest.id }]);
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.upvotes).toBe(0);
      expect(await awardEvents(s.svc, 'awarded', res.body.id)).toEqual([expect.objectContaining({ awardable_type: 'Note', awardable_id: note.id, project_id: s.project.id })]);
    });

    it('refuses system notes with GitLab’s message', async () => {
      const issue = await s.issue();
      const system = await storedNote('Issue', issue.id, { system: true });
      await s.on(s.guest).post(noteAwards(issue.iid, system.id)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' });
      expect(await storedAwards(s.svc, 'Note', system.id)).toEqual([]);
    });

    it('answers GitLab’s errors', async () => {
      const [issue, other] = [await s.issue(), await s.issue()];
      const note = await comment(issue.iid);
      const elsewhere = await comment(other.iid);
      await s.on(s.guest).post(noteAwards(issue.iid, note.id)).send({}).expect(400, { error: 'name is missing' });
      await s.on(null).post(noteAwards(issue.iid, note.id)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(s.guest).post(noteAwards(issue.iid, note.id)).send({ name: 'tadaa' }).expect(404, { message: '404 Award Emoji Name is not a valid emoji name Not Found' });
      await s.on(s.guest).post(noteAwards(issue.iid, elsewhere.id)).send({ name: 'tada' }).expect(404, { message: '404 Not found' });
      await s.on(s.guest).post(noteAwards(issue.iid, 'abc')).send({ name: 'tada' }).expect(404, { message: '404 Not found' });
      await award(issue.iid, note.id, s.guest, 'tada');
      await s.on(s.guest).post(noteAwards(issue.iid, note.id)).send({ name: ':tada:' }).expect(404, { message: '404 Award Emoji Name has already been taken Not Found' });
    });

    it('marks the awarder’s pending to-dos on the issue done', async () => {
      const issue = await s.issue();
      const note = await comment(issue.iid);
      const todo = (await s.on(s.guest).post(s.path(issue.iid, '/todo')).expect(201)).body;
      await award(issue.iid, note.id, s.guest, 'eyes');
      expect((await s.svc.deps.db('todos').where({ id: todo.id }).first()).state).toBe('done');
    });
  });

  describe('internal notes', () => {
    it('hide their awards from callers below Planner/Reporter (404 Award Emoji Not Found) and refuse their awards', async () => {
      const issue = await s.issue();
      const internal = await comment(issue.iid, { internal: true });
      const a = await award(issue.iid, internal.id, s.reporter, 'tada');
      expect((await s.on(s.reporter).get(noteAwards(issue.iid, internal.id)).expect(200)).body).toEqual([a]);
      expect((await s.on(s.admin).get(noteAwards(issue.iid, internal.id, `/${a.id}`)).expect(200)).body).toEqual(a);
      for (const who of [s.guest, s.outsider, null]) {
        await s.on(who).get(noteAwards(issue.iid, internal.id)).expect(404, { message: '404 Award Emoji Not Found' });
        await s.on(who).get(noteAwards(issue.iid, internal.id, `/${a.id}`)).expect(404, { message: '404 Award Emoji Not Found' });
      }
      await s.on(s.guest).post(noteAwards(issue.iid, internal.id)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
    });
  });

  describe('GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', () => {
    it('lists the note’s awards by id, anonymous too; a confidential issue’s notes only to who reads it', async () => {
      const issue = await s.issue();
      const note = await comment(issue.iid);
      const [a, b] = [await award(issue.iid, note.id, s.guest, 'tada'), await award(issue.iid, note.id, s.outsider, 'tada')];
      const res = await s.on(null).get(noteAwards(issue.iid, note.id)).expect(200);
      expect(res.body).toEqual([a, b]);
      expect(res.headers).toMatchObject({ 'x-total': '2' });
      const secret = await s.issue({ confidential: true });
      const hidden = await comment(secret.iid);
      await s.on(s.guest).get(noteAwards(secret.iid, hidden.id)).expect(404, { message: '404 Award Emoji Not Found' });
      expect((await s.on(s.reporter).get(noteAwards(secret.iid, hidden.id)).expect(200)).body).toEqual([]);
    });
  });

  describe('DELETE /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id', () => {
    it('lets the awarder remove it; others 401; an award of the issue itself is 404 Not found here', async () => {
      const issue = await s.issue();
      const note = await comment(issue.iid);
      const a = await award(issue.iid, note.id, s.guest, 'tada');
      const onIssue = (await s.on(s.guest).post(s.path(issue.iid, '/award_emoji')).send({ name: 'tada' }).expect(201)).body;
      await s.on(s.guest).delete(noteAwards(issue.iid, note.id, `/${onIssue.id}`)).expect(404, { message: '404 Not found' });
      await s.on(s.reporter).delete(noteAwards(issue.iid, note.id, `/${a.id}`)).expect(401, { message: '401 Unauthorized' });
      await s.on(s.guest).delete(noteAwards(issue.iid, note.id, `/${a.id}`)).expect(204);
      expect(await storedAwards(s.svc, 'Note', note.id)).toEqual([]);
      expect(await awardEvents(s.svc, 'removed', a.id)).toHaveLength(1);
    });
  });

  describe('/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', () => {
    it('awards, lists, shows and removes awards on a merge request’s note, marking the MR’s to-dos done', async () => {
      const mr = (await s.on(s.admin).post(`/api/v4/projects/${s.project.id}/merge_requests`).send({ source_branch: 'n1', target_branch: 'main', title: 'MR' }).expect(201)).body;
      const note = await storedNote('MergeRequest', mr.id);
      const [todo] = await s.svc.deps.db('todos').insert({ user_id: s.guest.id, project_id: s.project.id, author_id: s.admin.id, target_type: 'MergeRequest', target_id: mr.id, action: 'mentioned' }).returning('id');
      const path = `/api/v4/projects/${s.project.id}/merge_requests/${mr.iid}/notes/${note.id}/award_emoji`;
      const a = (await s.on(s.guest).post(path).send({ name: 'rocket' }).expect(201)).body;
      expect(a).toEqual(awardJson(s.guest, 'rocket', 'Note', note.id));
      expect((await s.svc.deps.db('todos').where({ id: todo.id }).first()).state).toBe('done');
      expect((await s.on(null).get(path).expect(200)).body).toEqual([a]);
      expect((await s.on(null).get(`${path}/${a.id}`).expect(200)).body).toEqual(a);
      const issue = await s.issue();
      const issueNote = await comment(issue.iid);
      await s.on(s.guest).get(`/api/v4/projects/${s.project.id}/merge_requests/${mr.iid}/notes/${issueNote.id}/award_emoji`).expect(404, { message: '404 Not found' });
      await s.on(s.guest).delete(`${path}/${a.id}`).expect(204);
      expect(await storedAwards(s.svc, 'Note', note.id)).toEqual([]);
    });
  });
});
