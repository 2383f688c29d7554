import { small, Small } from '../support/small';

describe('GET /issues/:id', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  it('returns any issue to an administrator', async () => {
    const issue = await s.issue({ confidential: true, title: 'By id' });
    const res = await s.world.as(s.admin).get(`/api/v4/issues/${issue.id}`).expect(200);
    expect(res.body).toMatchObject({ id: issue.id, iid: issue.iid, title: 'By id', confidential: true });
  });

  it('is 403 for other users, 401 anonymous, 404 Not found for an unknown id', async () => {
    const issue = await s.issue();
    await s.world.as(s.reporter).get(`/api/v4/issues/${issue.id}`).expect(403, { message: '403 Forbidden' });
    await s.world.as(null).get(`/api/v4/issues/${issue.id}`).expect(401, { message: '401 Unauthorized' });
    expect((await s.world.as(s.admin).get('/api/v4/issues/99999999').expect(404)).body).toEqual({ message: '404 Not found' });
  });
});
