import { awardEvents, awardJson, storedAwards } from '../support/award-emoji';
import { small, Small } from '../support/small';

describe('award emoji on merge requests', () => {
  let s: Small;
  let branch = 0;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  const mrPath = (iid: number, suffix = '') => `/api/v4/projects/${s.project.id}/merge_requests/${iid}${suffix}`;
  const awards = (iid: number, suffix = '') => mrPath(iid, `/award_emoji${suffix}`);
  const mergeRequest = async (body: Record<string, unknown> = {}): Promise<{ id: number; iid: number }> =>
    (await s.on(s.admin).post(`/api/v4/projects/${s.project.id}/merge_requests`).send({ source_branch: `f${branch++}`, target_branch: 'main', title: 'MR', ...body }).expect(201)).body;
  const award = async (iid: number, who: Small['guest'], name: string) => (await s.on(who).post(awards(iid)).send({ name }).expect(201)).body;
  const votes = async (iid: number) => {
    const mr = (await s.on(s.guest).get(mrPath(iid)).expect(200)).body;
    return [mr.upvotes, mr.downvotes];
  };

  describe('POST /projects/:id/merge_requests/:merge_request_iid/award_emoji', () => {
    it('awards (201), keeps upvotes and downvotes in step with the thumbs, and writes the awarded event', async () => {
      const mr = await mergeRequest();
      const up = (await s.on(s.guest).post(awards(mr.iid)).send({ name: ':thumbsup:' }).expect(201)).body;
      expect(up).toEqual(awardJson(s.guest, 'thumbsup', 'MergeRequest', mr.id));
      await award(mr.iid, s.reporter, 'thumbsdown');
      await award(mr.iid, s.outsider, 'thumbsdown');
      await award(mr.iid, s.outsider, 'thumbsup_tone2');
      expect(await votes(mr.iid)).toEqual([1, 2]);
      expect(await awardEvents(s.svc, 'awarded', up.id)).toEqual([expect.objectContaining({ awardable_type: 'MergeRequest', awardable_id: mr.id, project_id: s.project.id })]);
    });

    it('answers GitLab’s errors', async () => {
      const mr = await mergeRequest();
      await s.on(s.guest).post(awards(mr.iid)).send({}).expect(400, { error: 'name is missing' });
      await s.on(null).post(awards(mr.iid)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
      await s.on(s.guest).post(awards(mr.iid)).send({ name: 'nope_not_emoji' }).expect(404, { message: '404 Award Emoji Name is not a valid emoji name Not Found' });
      await award(mr.iid, s.guest, 'tada');
      await s.on(s.guest).post(awards(mr.iid)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Name has already been taken Not Found' });
      await s.on(s.guest).post(awards(mr.iid + 1000)).send({ name: 'tada' }).expect(404, { message: '404 Not found' });
    });

    it('refuses non-members on a locked discussion', async () => {
      const mr = await mergeRequest();
      await s.on(s.admin).put(mrPath(mr.iid)).send({ discussion_locked: true }).expect(200);
      await s.on(s.outsider).post(awards(mr.iid)).send({ name: 'tada' }).expect(404, { message: '404 Award Emoji Not Found' });
      await award(mr.iid, s.guest, 'tada');
    });

    it('marks all the awarder’s pending to-dos on the merge request done', async () => {
      const mr = await mergeRequest();
      const todo = (user: number) => ({ user_id: user, project_id: s.project.id, author_id: s.admin.id, target_type: 'MergeRequest', target_id: mr.id, action: 'assigned' });
      const [mine, again, theirs] = await s.svc.deps.db('todos').insert([todo(s.guest.id), { ...todo(s.guest.id), action: 'mentioned' }, todo(s.reporter.id)]).returning('id');
      await award(mr.iid, s.guest, 'eyes');
      const states = await s.svc.deps.db('todos').whereIn('id', [mine.id, again.id, theirs.id]).orderBy('id').pluck('state');
      expect(states).toEqual(['done', 'done', 'pending']);
    });
  });

  describe('GET /projects/:id/merge_requests/:merge_request_iid/award_emoji', () => {
    it('lists them by id, anonymous too, paginated', async () => {
      const mr = await mergeRequest();
      const a = await award(mr.iid, s.guest, 'tada');
      const b = await award(mr.iid, s.reporter, 'rocket');
      const res = await s.on(null).get(awards(mr.iid)).expect(200);
      expect(res.body).toEqual([a, b]);
      expect(res.headers).toMatchObject({ 'x-total': '2', 'x-page': '1', 'x-per-page': '20' });
      await s.on(null).get(awards(mr.iid + 1000)).expect(404, { message: '404 Not found' });
    });
  });

  describe('GET /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', () => {
    it('shows one award of this merge request only', async () => {
      const [mr, other] = [await mergeRequest(), await mergeRequest()];
      const a = await award(mr.iid, s.guest, 'tada');
      const b = await award(other.iid, s.guest, 'tada');
      expect((await s.on(null).get(awards(mr.iid, `/${a.id}`)).expect(200)).body).toEqual(a);
      await s.on(s.guest).get(awards(mr.iid, `/${b.id}`)).expect(404, { message: '404 Not found' });
    });
  });

  describe('DELETE /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', () => {
    it('lets the awarder or an administrator remove it, giving the vote back; others get 401', async () => {
      const mr = await mergeRequest();
      const mine = await award(mr.iid, s.guest, 'thumbsup');
      const theirs = await award(mr.iid, s.reporter, 'thumbsdown');
      await s.on(s.guest).delete(awards(mr.iid, `/${theirs.id}`)).expect(401, { message: '401 Unauthorized' });
      await s.on(s.guest).delete(awards(mr.iid, `/${mine.id}`)).expect(204);
      await s.on(s.admin).delete(awards(mr.iid, `/${theirs.id}`)).expect(204);
      expect(await storedAwards(s.svc, 'MergeRequest', mr.id)).toEqual([]);
      expect(await votes(mr.iid)).toEqual([0, 0]);
      expect(await awardEvents(s.svc, 'removed', theirs.id)).toEqual([expect.objectContaining({ actor_id: s.admin.id, user_id: s.reporter.id })]);
    });
  });
});
