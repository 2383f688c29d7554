import { published } from '../support/published';
import { small, Small } from '../support/small';

describe('GET /todos', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
  });
  afterAll(() => s?.svc.stop());

  it('lists the caller’s pending to-dos, newest first, and hides done ones', async () => {
    const a = await s.issue({ title: 'A' });
    const b = await s.issue({ title: 'B' });
    await s.on(s.guest).post(s.path(a.iid, '/todo')).expect(201);
    const tb = (await s.on(s.guest).post(s.path(b.iid, '/todo')).expect(201)).body;
    await s.on(s.reporter).post(s.path(a.iid, '/todo')).expect(201);
    const res = await s.world.as(s.guest).get('/api/v4/todos').expect(200);
    expect(res.body.map((t: { body: string }) => t.body)).toEqual(['B', 'A']);
    expect(res.headers['x-total']).toBe('2');
    expect((await s.world.as(s.guest).post(`/api/v4/todos/${tb.id}/mark_as_done`).expect(201)).body).toMatchObject({ id: tb.id, body: 'B', state: 'done' });
    expect((await s.world.as(s.guest).get('/api/v4/todos').expect(200)).body.map((t: { body: string }) => t.body)).toEqual(['A']);
    expect((await s.world.as(s.guest).get('/api/v4/todos?state=done').expect(200)).body.map((t: { body: string }) => t.body)).toEqual(['B']);
    await s.world.as(s.guest).post('/api/v4/todos/mark_as_done').expect(204, '');
    expect((await s.world.as(s.guest).get('/api/v4/todos').expect(200)).body).toEqual([]);
    const done = await published(s.svc, 'work-items.todo.updated', { user_id: s.guest.id });
    expect(done.map((e) => [e.data.target_id, e.data.state])).toEqual([[b.id, 'done'], [a.id, 'done']]);
  });

  it('needs authentication', async () => {
    await s.world.as(null).get('/api/v4/todos').expect(401, { message: '401 Unauthorized' });
  });
});
