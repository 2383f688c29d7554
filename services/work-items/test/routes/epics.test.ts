import { published } from '../support/published';
import { small, Small } from '../support/small';
import { AccessLevel } from '../support/world';

describe('thin group epics', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
    await s.world.member(s.group, s.reporter, AccessLevel.REPORTER);
  });
  afterAll(() => s?.svc.stop());
  const G = (suffix = '') => `/api/v4/groups/${s.group.id}/epics${suffix}`;

  it('POST creates (201) for reporters, 403 for guests, 401 anonymous', async () => {
    const res = await s.world.onGroup(s.group, s.reporter).post(G()).send({ title: 'Epic one' }).expect(201);
    expect(res.body).toMatchObject({ iid: 1, group_id: s.group.id, title: 'Epic one', state: 'opened', web_url: 'http://127.0.0.1:8080/groups/team/-/epics/1' });
    await s.world.onGroup(s.group, s.guest).post(G()).send({ title: 'x' }).expect(403, { message: '403 Forbidden' });
    await s.world.onGroup(s.group, null).post(G()).send({ title: 'x' }).expect(401, { message: '401 Unauthorized' });
    expect(await published(s.svc, 'work-items.epic.', { group_id: s.group.id })).toEqual([{
      type: 'work-items.epic.created',
      data: { id: res.body.id, iid: 1, group_id: s.group.id, title: 'Epic one', description: null, state: 'opened', confidential: false, author_id: s.reporter.id, actor_id: s.reporter.id },
    }]);
  });

  it('GET lists and reads by iid; an issue shows its epic', async () => {
    const epic = (await s.world.onGroup(s.group, s.reporter).post(G()).send({ title: 'Epic two' }).expect(201)).body;
    expect((await s.world.onGroup(s.group, s.guest).get(G()).expect(200)).body[0].title).toBe('Epic two');
    expect((await s.world.onGroup(s.group, s.guest).get(G(`/${epic.iid}`)).expect(200)).body.id).toBe(epic.id);
    await s.world.onGroup(s.group, s.guest).get(G('/999')).expect(404, { message: '404 Epic Not Found' });
    const issue = await s.issue({ epic_id: epic.id });
    expect(issue).toMatchObject({ epic_iid: epic.iid, epic: { id: epic.id, iid: epic.iid, title: 'Epic two', group_id: s.group.id, url: epic.web_url } });
    expect((await s.on(s.reporter).post(`/api/v4/projects/${s.project.id}/issues`).send({ title: 'x', epic_id: 999999 }).expect(404)).body).toEqual({ message: '404 Epic Not Found' });
  });

  it('GET filters by search and state, newest first, and POST refuses a blank title', async () => {
    const a = (await s.world.onGroup(s.group, s.reporter).post(G()).send({ title: 'Roadmap', description: 'the plan' }).expect(201)).body;
    const b = (await s.world.onGroup(s.group, s.reporter).post(G()).send({ title: 'Other', description: 'roadmap notes', confidential: true }).expect(201)).body;
    expect(b).toMatchObject({ confidential: true, description: 'roadmap notes', references: { short: `&${b.iid}`, full: `team&${b.iid}` } });
    const found = await s.world.onGroup(s.group, s.guest).get(`${G()}?search=roadmap`).expect(200);
    expect(found.body).toEqual([b, a]);
    expect(found.headers['x-total']).toBe('2');
    expect((await s.world.onGroup(s.group, s.guest).get(`${G()}?state=closed`).expect(200)).body).toEqual([]);
    await s.world.onGroup(s.group, s.reporter).post(G()).send({ title: '  ' }).expect(400, { message: { title: ["can't be blank"] } });
  });
});
