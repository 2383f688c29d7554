import { awardEvents, awardJson, storedAwards } from '../support/award-emoji';
import { small, Small } from '../support/small';
import { AccessLevel, ProjectInfo } from '../support/world';

describe('award emoji on issues', () => {
  let s: Small;
  let secret: ProjectInfo;
  beforeAll(async () => {
    s = await small();
    secret = await s.world.project('secret', { group: s.group, visibility: 'private' });
    await s.world.member(secret, s.reporter, AccessLevel.REPORTER);
  });
  afterAll(() => s?.svc.stop());

  const awards = (iid: number, suffix = '') => s.path(iid, `/award_emoji${suffix}`);
  const award = async (iid: number, who: Small['guest'], name: string) => (await s.on(who).post(awards(iid)).send({ name }).expect(201)).body;

  describe('POST /projects/:id/issues/:issue_iid/award_emoji', () => {
    it('awards an alias under GitLab’s name (201), stores it, counts the upvote and writes the awarded event', async () => {
      const issue = await s.issue();
      const res = await s.on(s.guest).post(awards(issue.iid)).send({ name: '+1' }).expect(201);
      expect(res.body).toEqual(awardJson(s.guest, 'thumbsup', 'Issue', issue.id));
      expect(await storedAwards(s.svc, 'Issue', issue.id)).toEqual([{ id: res.body.id, name: 'thumbsup', user_id: s.guest.id }]);
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body).toMatchObject({ upvotes: 1, downvotes: 0 });
      expect(await awardEvents(s.svc, 'awarded', res.body.id)).toEqual([{
        id: res.body.id, name: 'thumbsup', user_id: s.guest.id, awardable_type: 'Issue', awardable_id: issue.id, project_id: s.project.id,
        created_at: res.body.created_at, updated_at: res.body.updated_at, actor_id: s.guest.id,
      }]);
    });

    it('refuses the same emoji twice, whatever alias names it', async () => {
      const issue = await s.issue();
      await award(issue.iid, s.guest, 'thumbsup');
      await s.on(s.guest).post(awards(issue.iid)).send({ name: ':+1:' }).expect(404, { message: '404 Award Emoji Name has already been taken Not Found' });
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.upvotes).toBe(1);
      expect(await award(issue.iid, s.reporter, ':thumbsup:')).toMatchObject({ name: 'thumbsup' });
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.upvotes).toBe(2);
    });

    it('answers GitLab’s errors and stores nothing', async () => {
      const issue = await s.issue();
      await s.on(s.guest).post(awards(issue.iid)).send({}).expect(400, { error: 'name is missing' });
      await s.on(s.guest).post(awards(issue.iid)).send({ name: 'Not An Emoji' }).expect(404, { message: '404 Award Emoji Name is not a valid emoji name Not Found' });
      await s.on(null).post(awards(issue.iid)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(s.guest).post(awards(issue.iid + 1000)).send({ name: 'tada' }).expect(404, { message: '404 Not found' });
      expect(await storedAwards(s.svc, 'Issue', issue.id)).toEqual([]);
    });

    it('lets a signed-in non-member award on a public project, unless the discussion is locked', async () => {
      const issue = await s.issue();
      expect(await award(issue.iid, s.outsider, 'tada')).toMatchObject({ name: 'tada' });
      await s.on(s.reporter).put(s.path(issue.iid)).send({ discussion_locked: true }).expect(200);
      await s.on(s.outsider).post(awards(issue.iid)).send({ name: 'heart' }).expect(404, { message: '404 Award Emoji Not Found' });
      expect(await award(issue.iid, s.guest, 'heart')).toMatchObject({ name: 'heart' });
    });

    it('is 404 Award Emoji Not Found on a confidential issue the caller may not read', async () => {
      const issue = await s.issue({ confidential: true });
      await s.on(s.guest).post(awards(issue.iid)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
      expect(await award(issue.iid, s.reporter, 'tada')).toMatchObject({ awardable_id: issue.id });
    });

    it('is 404 Project Not Found on a private project for a non-member', async () => {
      const issue = (await s.world.onProject(secret, s.reporter).post(`/api/v4/projects/${secret.id}/issues`).send({ title: 'x' }).expect(201)).body;
      const path = `/api/v4/projects/${secret.id}/issues/${issue.iid}/award_emoji`;
      await s.world.onProject(secret, s.outsider).post(path).send({ name: 'tada' }).expect(404, { message: '404 Project Not Found' });
      await s.world.onProject(secret, null).get(path).expect(404, { message: '404 Project Not Found' });
      await s.world.onProject(secret, s.reporter).post(path).send({ name: 'tada' }).expect(201);
    });

    it('is 404 Award Emoji Not Found on an archived project, whose awards stay readable', async () => {
      const old = await s.world.project('old', { group: s.group, visibility: 'public' });
      await s.world.member(old, s.reporter, AccessLevel.REPORTER);
      const issue = (await s.world.onProject(old, s.reporter).post(`/api/v4/projects/${old.id}/issues`).send({ title: 'x' }).expect(201)).body;
      const path = `/api/v4/projects/${old.id}/issues/${issue.iid}/award_emoji`;
      const a = (await s.world.onProject(old, s.reporter).post(path).send({ name: 'tada' }).expect(201)).body;
      await s.world.archive(old);
      await s.world.onProject(old, s.reporter).post(path).send({ name: 'rocket' }).expect(404, { message: '404 Award Emoji Not Found' });
      expect((await s.world.onProject(old, null).get(path).expect(200)).body).toEqual([a]);
    });

    it('marks all the awarder’s pending to-dos on the issue done, and no one else’s', async () => {
      const issue = await s.issue();
      const mine = (await s.on(s.guest).post(s.path(issue.iid, '/todo')).expect(201)).body;
      const theirs = (await s.on(s.reporter).post(s.path(issue.iid, '/todo')).expect(201)).body;
      await award(issue.iid, s.guest, 'eyes');
      const state = async (id: number) => (await s.svc.deps.db('todos').where({ id }).first()).state;
      expect([await state(mine.id), await state(theirs.id)]).toEqual(['done', 'pending']);
    });

    it('agrees with the my_reaction_emoji filter when awarded through an alias', async () => {
      const issue = await s.issue({ title: 'reacted' });
      await award(issue.iid, s.guest, '+1');
      const list = async (q: string) => (await s.world.as(s.guest).get(`/api/v4/issues?scope=all&${q}`).expect(200)).body.map((i: { id: number }) => i.id);
      expect(await list('my_reaction_emoji=thumbsup')).toContain(issue.id);
      expect(await list('my_reaction_emoji=Any')).toContain(issue.id);
      expect(await list('my_reaction_emoji=None')).not.toContain(issue.id);
      expect(await list('my_reaction_emoji=thumbsdown')).not.toContain(issue.id);
    });
  });

  describe('ids beyond what is stored', () => {
    it('name nothing (404 Not found), never a 5xx', async () => {
      const issue = await s.issue();
      const note = (await s.on(s.reporter).post(s.path(issue.iid, '/notes')).send({ body: 'x' }).expect(201)).body;
      for (const big of ['2147483648', '99999999999']) {
        await s.on(s.guest).get(`/api/v4/projects/${s.project.id}/issues/${big}/award_emoji`).expect(404, { message: '404 Not found' });
        await s.on(s.guest).get(awards(issue.iid, `/${big}`)).expect(404, { message: '404 Not found' });
        await s.on(s.guest).delete(awards(issue.iid, `/${big}`)).expect(404, { message: '404 Not found' });
        await s.on(s.guest).get(s.path(issue.iid, `/notes/${big}/award_emoji`)).expect(404, { message: '404 Not found' });
        await s.on(s.guest).get(`/api/v4/projects/${s.project.id}/merge_requests/${big}/award_emoji`).expect(404, { message: '404 Not found' });
        await s.on(s.guest).get(`/api/v4/projects/${s.project.id}/snippets/${big}/award_emoji`).expect(404, { message: '404 Not found' });
      }
      await s.on(s.guest).get(s.path(issue.iid, `/notes/${note.id}/award_emoji/-1`)).expect(404, { message: '404 Not found' });
      await s.on(s.guest).post(awards(issue.iid)).send({ name: ['tada', 'x'] }).expect(400);
    });
  });

  describe('GET /projects/:id/issues/:issue_iid/award_emoji', () => {
    it('lists the awards by id with GitLab’s pagination headers, anonymous too', async () => {
      const issue = await s.issue();
      const first = await award(issue.iid, s.guest, 'tada');
      const second = await award(issue.iid, s.reporter, 'thumbsdown');
      const res = await s.on(null).get(`${awards(issue.iid)}?per_page=1`).expect(200);
      expect(res.body).toEqual([first]);
      expect(res.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '2', 'x-page': '1', 'x-per-page': '1', 'x-next-page': '2', 'x-prev-page': '' });
      expect((await s.on(null).get(`${awards(issue.iid)}?page=2&per_page=1`).expect(200)).body).toEqual([second]);
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body).toMatchObject({ upvotes: 0, downvotes: 1 });
    });

    it('is 404 Award Emoji Not Found on an unreadable confidential issue and 404 Not found on a missing one', async () => {
      const issue = await s.issue({ confidential: true });
      await award(issue.iid, s.reporter, 'tada');
      await s.on(s.guest).get(awards(issue.iid)).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(null).get(awards(issue.iid)).expect(404, { message: '404 Award Emoji Not Found' });
      expect((await s.on(s.reporter).get(awards(issue.iid)).expect(200)).body).toHaveLength(1);
      await s.on(s.guest).get(awards(issue.iid + 1000)).expect(404, { message: '404 Not found' });
    });
  });

  describe('GET /projects/:id/issues/:issue_iid/award_emoji/:award_id', () => {
    it('shows one award, and 404 Not found for one of another issue', async () => {
      const issue = await s.issue();
      const other = await s.issue();
      const mine = await award(issue.iid, s.guest, 'rocket');
      const elsewhere = await award(other.iid, s.guest, 'rocket');
      expect((await s.on(null).get(awards(issue.iid, `/${mine.id}`)).expect(200)).body).toEqual(mine);
      await s.on(s.guest).get(awards(issue.iid, `/${elsewhere.id}`)).expect(404, { message: '404 Not found' });
      await s.on(s.guest).get(awards(issue.iid, '/abc')).expect(400, { error: 'award_id is invalid' });
    });

    it('is 404 Award Emoji Not Found when the issue is not readable', async () => {
      const issue = await s.issue({ confidential: true });
      const a = await award(issue.iid, s.reporter, 'rocket');
      await s.on(s.guest).get(awards(issue.iid, `/${a.id}`)).expect(404, { message: '404 Award Emoji Not Found' });
    });
  });

  describe('DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id', () => {
    it('lets the awarder remove it (204): row gone, upvote gone, removed event written', async () => {
      const issue = await s.issue();
      const a = await award(issue.iid, s.guest, 'thumbsup');
      const res = await s.on(s.guest).delete(awards(issue.iid, `/${a.id}`)).expect(204);
      expect(res.text).toBe('');
      expect(await storedAwards(s.svc, 'Issue', issue.id)).toEqual([]);
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.upvotes).toBe(0);
      expect(await awardEvents(s.svc, 'removed', a.id)).toEqual([expect.objectContaining({ id: a.id, name: 'thumbsup', user_id: s.guest.id, actor_id: s.guest.id })]);
      await s.on(s.guest).delete(awards(issue.iid, `/${a.id}`)).expect(404, { message: '404 Not found' });
    });

    it('lets an administrator remove another’s award; anyone else is 401', async () => {
      const issue = await s.issue();
      const a = await award(issue.iid, s.guest, 'tada');
      await s.on(s.reporter).delete(awards(issue.iid, `/${a.id}`)).expect(401, { message: '401 Unauthorized' });
      await s.on(null).delete(awards(issue.iid, `/${a.id}`)).expect(401, { message: '401 Unauthorized' });
      expect(await storedAwards(s.svc, 'Issue', issue.id)).toHaveLength(1);
      await s.on(s.admin).delete(awards(issue.iid, `/${a.id}`)).expect(204);
      expect(await awardEvents(s.svc, 'removed', a.id)).toEqual([expect.objectContaining({ user_id: s.guest.id, actor_id: s.admin.id })]);
    });

    it('honours If-Unmodified-Since (412 when the award is newer)', async () => {
      const issue = await s.issue();
      const a = await award(issue.iid, s.guest, 'tada');
      const before = new Date(Date.parse(a.updated_at) - 60_000).toUTCString();
      await s.on(s.guest).delete(awards(issue.iid, `/${a.id}`)).set('If-Unmodified-Since', before).expect(412, { message: '412 Precondition Failed' });
      expect(await storedAwards(s.svc, 'Issue', issue.id)).toHaveLength(1);
      const after = new Date(Date.parse(a.updated_at) + 60_000).toUTCString();
      await s.on(s.guest).delete(awards(issue.iid, `/${a.id}`)).set('If-Unmodified-Since', after).expect(204);
    });

    it('is 404 Not found for an award of another issue', async () => {
      const [issue, other] = [await s.issue(), await s.issue()];
      const a = await award(other.iid, s.guest, 'tada');
      await s.on(s.guest).delete(awards(issue.iid, `/${a.id}`)).expect(404, { message: '404 Not found' });
      expect(await storedAwards(s.svc, 'Issue', other.id)).toHaveLength(1);
    });
  });
});
