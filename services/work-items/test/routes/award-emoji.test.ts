import { published } from '../support/published';
import { small, Small } from '../support/small';

describe('award emoji on issues', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  const user = (u: Small['guest']) => ({
    id: u.id, username: u.username, name: u.name, state: 'active', locked: false, avatar_url: null, web_url: `http://127.0.0.1:8080/${u.username}`,
  });

  describe('POST /projects/:id/issues/:issue_iid/award_emoji', () => {
    it('awards (201, AwardEmoji entity), counts a thumbsup as an upvote, and refuses the same award twice', async () => {
      const issue = await s.issue();
      const res = await s.on(s.guest).post(s.path(issue.iid, '/award_emoji')).send({ name: ':thumbsup:' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number), name: 'thumbsup', user: user(s.guest), created_at: expect.any(String), updated_at: expect.any(String),
        awardable_id: issue.id, awardable_type: 'Issue',
      });
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body).toMatchObject({ upvotes: 1, downvotes: 0 });
      await s.on(s.guest).post(s.path(issue.iid, '/award_emoji')).send({ name: 'thumbsup' })
        .expect(404, { message: '404 Award Emoji Name has already been taken Not Found' });
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.upvotes).toBe(1);
      expect(await published(s.svc, 'work-items.award_emoji.', { awardable_id: issue.id })).toEqual([{
        type: 'work-items.award_emoji.created',
        data: { id: res.body.id, name: 'thumbsup', user_id: s.guest.id, awardable_type: 'Issue', awardable_id: issue.id, project_id: s.project.id },
      }]);
    });

    it('is 400 for a name that is not an emoji and 401 anonymous, awarding nothing', async () => {
      const issue = await s.issue();
      await s.on(s.guest).post(s.path(issue.iid, '/award_emoji')).send({ name: 'Not An Emoji' }).expect(400, { message: { name: ['is not a valid emoji name'] } });
      await s.on(null).post(s.path(issue.iid, '/award_emoji')).send({ name: 'tada' }).expect(401, { message: '401 Unauthorized' });
      expect((await s.on(s.guest).get(s.path(issue.iid, '/award_emoji')).expect(200)).body).toEqual([]);
    });
  });

  describe('GET /projects/:id/issues/:issue_iid/award_emoji', () => {
    it('lists the awards oldest first with GitLab’s pagination headers', async () => {
      const issue = await s.issue();
      const first = (await s.on(s.guest).post(s.path(issue.iid, '/award_emoji')).send({ name: 'tada' }).expect(201)).body;
      const second = (await s.on(s.reporter).post(s.path(issue.iid, '/award_emoji')).send({ name: 'thumbsdown' }).expect(201)).body;
      const res = await s.on(s.guest).get(`${s.path(issue.iid, '/award_emoji')}?per_page=1`).expect(200);
      expect(res.body).toEqual([first]);
      expect(res.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '2', 'x-page': '1', 'x-per-page': '1', 'x-next-page': '2', 'x-prev-page': '' });
      expect((await s.on(s.guest).get(`${s.path(issue.iid, '/award_emoji')}?page=2&per_page=1`).expect(200)).body).toEqual([second]);
      expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body).toMatchObject({ upvotes: 0, downvotes: 1 });
    });
  });
});
