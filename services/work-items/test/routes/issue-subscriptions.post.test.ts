import { published } from '../support/published';
import { small, Small } from '../support/small';

describe('POST /projects/:id/issues/:issue_iid/subscribe and /unsubscribe', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  it('subscribes with 201 and the issue, then 304 with an empty body', async () => {
    const issue = await s.issue();
    const first = await s.on(s.guest).post(s.path(issue.iid, '/subscribe')).send({}).expect(201);
    expect(first.body).toMatchObject({ iid: issue.iid, subscribed: true });
    const again = await s.on(s.guest).post(s.path(issue.iid, '/subscribe')).send({}).expect(304);
    expect(again.text).toBe('');
    expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.subscribed).toBe(true);
  });

  it('unsubscribes with 201, then 304', async () => {
    const issue = await s.issue();
    await s.on(s.guest).post(s.path(issue.iid, '/unsubscribe')).send({}).expect(304, '');
    expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.subscribed).toBe(false);
    expect((await s.on(s.guest).post(s.path(issue.iid, '/subscribe')).expect(201)).body).toMatchObject({ iid: issue.iid, subscribed: true });
    const res = await s.on(s.guest).post(s.path(issue.iid, '/unsubscribe')).expect(201);
    expect(res.body.subscribed).toBe(false);
    await s.on(s.guest).post(s.path(issue.iid, '/unsubscribe')).expect(304, '');
    expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.subscribed).toBe(false);
    const events = await published(s.svc, 'work-items.subscription.', { subscribable_id: issue.id });
    const data = { user_id: s.guest.id, subscribable_type: 'Issue', subscribable_id: issue.id, project_id: s.project.id };
    expect(events).toEqual([
      { type: 'work-items.subscription.updated', data: { ...data, subscribed: true } },
      { type: 'work-items.subscription.updated', data: { ...data, subscribed: false } },
    ]);
  });

  it('treats the author as subscribed until they unsubscribe', async () => {
    const issue = await s.issue();
    await s.on(s.reporter).post(s.path(issue.iid, '/subscribe')).expect(304, '');
    expect((await s.on(s.reporter).get(s.path(issue.iid)).expect(200)).body.subscribed).toBe(true);
    expect((await s.on(s.reporter).post(s.path(issue.iid, '/unsubscribe')).expect(201)).body.subscribed).toBe(false);
    expect((await s.on(s.reporter).post(s.path(issue.iid, '/subscribe')).expect(201)).body.subscribed).toBe(true);
  });

  it('needs authentication and a readable issue', async () => {
    const issue = await s.issue({ confidential: true });
    await s.on(null).post(s.path(issue.iid, '/subscribe')).expect(401, { message: '401 Unauthorized' });
    await s.on(s.outsider).post(s.path(issue.iid, '/subscribe')).expect(404, { message: '404 Not found' });
    await s.on(s.outsider).post(s.path(999, '/subscribe')).expect(404, { message: '404 Not found' });
  });
});
