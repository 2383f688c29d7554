import { published } from '../support/published';
import { small, Small } from '../support/small';

describe('POST /projects/:id/issues/:issue_iid/todo', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  it('creates a marked to-do (201, GitLab’s entity), then 304 while it is pending', async () => {
    const issue = await s.issue({ title: 'Do it' });
    const res = await s.on(s.guest).post(s.path(issue.iid, '/todo')).send({}).expect(201);
    expect(res.body).toMatchObject({
      action_name: 'marked', target_type: 'Issue', body: 'Do it', state: 'pending',
      author: { id: s.guest.id, username: 'guest' },
      project: { id: s.project.id, name: 'proj', path: 'proj', path_with_namespace: 'team/proj', name_with_namespace: 'team / proj' },
      target: { id: issue.id, iid: issue.iid, title: 'Do it' },
      target_url: `http://127.0.0.1:8080/team/proj/-/issues/${issue.iid}`,
    });
    const again = await s.on(s.guest).post(s.path(issue.iid, '/todo')).send({}).expect(304);
    expect(again.text).toBe('');
    expect((await s.world.as(s.guest).get('/api/v4/todos').expect(200)).body.map((t: { id: number }) => t.id)).toEqual([res.body.id]);
    expect(await published(s.svc, 'work-items.todo.', { target_id: issue.id })).toEqual([{
      type: 'work-items.todo.created',
      data: {
        id: res.body.id, user_id: s.guest.id, project_id: s.project.id, group_id: null, author_id: s.guest.id, target_type: 'Issue', target_id: issue.id,
        action: 'marked', state: 'pending',
      },
    }]);
  });

  it('creates another one once the first is done', async () => {
    const issue = await s.issue();
    const todo = (await s.on(s.guest).post(s.path(issue.iid, '/todo')).expect(201)).body;
    expect((await s.world.as(s.guest).post(`/api/v4/todos/${todo.id}/mark_as_done`).expect(201)).body).toMatchObject({ id: todo.id, state: 'done' });
    const next = (await s.on(s.guest).post(s.path(issue.iid, '/todo')).expect(201)).body;
    expect(next).toMatchObject({ target: { id: issue.id }, state: 'pending' });
    expect(next.id).not.toBe(todo.id);
  });

  it('needs authentication (401) and a readable issue (404)', async () => {
    const issue = await s.issue({ confidential: true });
    await s.on(null).post(s.path(issue.iid, '/todo')).expect(401, { message: '401 Unauthorized' });
    await s.on(s.outsider).post(s.path(issue.iid, '/todo')).expect(404, { message: '404 Not found' });
  });
});
