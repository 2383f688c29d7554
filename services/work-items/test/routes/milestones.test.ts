import { small, Small } from '../support/small';
import { day } from '../support/dataset';
import { published } from '../support/published';
import { AccessLevel } from '../support/world';

describe('milestones API (project and group)', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
    await s.world.member(s.group, s.reporter, AccessLevel.REPORTER);
  });
  afterAll(() => s?.svc.stop());

  const P = (suffix = '') => `/api/v4/projects/${s.project.id}/milestones${suffix}`;
  const G = (suffix = '') => `/api/v4/groups/${s.group.id}/milestones${suffix}`;

  it('POST creates with the next iid (201, Milestone entity)', async () => {
    const res = await s.on(s.reporter).post(P()).send({ title: 'v1', description: 'first', due_date: day(-1), start_date: day(-10) }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number), iid: 1, project_id: s.project.id, title: 'v1', description: 'first', state: 'active',
      created_at: expect.any(String), updated_at: expect.any(String), due_date: day(-1), start_date: day(-10), expired: true,
      web_url: 'http://127.0.0.1:8080/team/proj/-/milestones/1',
    });
    expect((await s.on(s.reporter).post(P()).send({ title: 'v2' }).expect(201)).body.iid).toBe(2);
    expect(await published(s.svc, 'work-items.milestone.', { id: res.body.id })).toEqual([{
      type: 'work-items.milestone.created',
      data: {
        id: res.body.id, iid: 1, project_id: s.project.id, group_id: null, title: 'v1', description: 'first', state: 'active',
        due_date: day(-1), start_date: day(-10), actor_id: s.reporter.id,
      },
    }]);
  });

  it('POST refuses a duplicate title and a due date before the start', async () => {
    await s.on(s.reporter).post(P()).send({ title: 'same' }).expect(201);
    expect((await s.on(s.reporter).post(P()).send({ title: 'same' }).expect(400)).body).toEqual({ message: { title: ['already being used for another group or project milestone.'] } });
    expect((await s.on(s.reporter).post(P()).send({ title: 'bad', start_date: '2030-02-01', due_date: '2030-01-01' }).expect(400)).body).toEqual({ message: { due_date: ['must be greater than start date'] } });
    await s.on(s.guest).post(P()).send({ title: 'nope' }).expect(403, { message: '403 Forbidden' });
  });

  it('GET lists with filters and reads one', async () => {
    const m = (await s.on(s.reporter).post(P()).send({ title: 'findme' }).expect(201)).body;
    expect((await s.on(s.guest).get(`${P()}?title=findme`).expect(200)).body.map((x: { id: number }) => x.id)).toEqual([m.id]);
    expect((await s.on(s.guest).get(`${P()}?iids[]=${m.iid}`).expect(200)).body.map((x: { id: number }) => x.id)).toEqual([m.id]);
    expect((await s.on(s.guest).get(P(`/${m.id}`)).expect(200)).body.title).toBe('findme');
    await s.on(s.guest).get(P('/999999')).expect(404, { message: '404 Milestone Not Found' });
    const described = (await s.on(s.reporter).post(P()).send({ title: 'zeta', description: 'has findme inside' }).expect(201)).body;
    expect((await s.on(s.guest).get(`${P()}?search=findme`).expect(200)).body).toEqual([m, described]);
  });

  it('PUT closes and edits; DELETE removes (204) and issues lose the milestone', async () => {
    const m = (await s.on(s.reporter).post(P()).send({ title: 'closing' }).expect(201)).body;
    const issue = await s.issue({ milestone_id: m.id });
    expect(issue.milestone).toMatchObject({ id: m.id });
    expect((await s.on(s.reporter).put(P(`/${m.id}`)).send({ state_event: 'close', title: 'closed one' }).expect(200)).body).toMatchObject({ state: 'closed', title: 'closed one' });
    expect((await s.on(s.guest).get(`${P()}?state=closed`).expect(200)).body.map((x: { id: number }) => x.id)).toContain(m.id);
    await s.on(s.reporter).delete(P(`/${m.id}`)).expect(204, '');
    await s.on(s.guest).get(P(`/${m.id}`)).expect(404, { message: '404 Milestone Not Found' });
    expect((await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.milestone).toBeNull();
    const events = await published(s.svc, 'work-items.milestone.', { id: m.id });
    expect(events.map((e) => [e.type, e.data.title, e.data.state])).toEqual([
      ['work-items.milestone.created', 'closing', 'active'], ['work-items.milestone.updated', 'closed one', 'closed'], ['work-items.milestone.deleted', 'closed one', 'closed'],
    ]);
  });

  it('group milestones: create, list (also from the project with include_ancestors), assign to a project issue', async () => {
    const gm = (await s.world.onGroup(s.group, s.reporter).post(G()).send({ title: 'Q3' }).expect(201)).body;
    expect(gm).toMatchObject({ group_id: s.group.id, web_url: `http://127.0.0.1:8080/groups/team/-/milestones/${gm.iid}` });
    expect(gm).not.toHaveProperty('project_id');
    expect((await s.world.onGroup(s.group, s.guest).get(G()).expect(200)).body.map((x: { id: number }) => x.id)).toEqual([gm.id]);
    expect((await s.on(s.guest).get(`${P()}?include_ancestors=true&title=Q3`).expect(200)).body.map((x: { id: number }) => x.id)).toEqual([gm.id]);
    const issue = await s.issue({ milestone: 'Q3' });
    expect(issue.milestone).toMatchObject({ id: gm.id, group_id: s.group.id });
  });
});
