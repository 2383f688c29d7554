import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { AccessLevel, ProjectInfo, startWorkItems, World } from '../support/world';

describe('PUT /projects/:id/issues/:issue_iid', () => {
  let svc: TestService;
  let world: World;
  let reporter: Actor;
  let guestAuthor: Actor;
  let guest: Actor;
  let project: ProjectInfo;
  let milestoneId: number;
  let iid = 0;

  const path = (n: number) => `/api/v4/projects/${project.id}/issues/${n}`;
  const as = (u: Actor) => world.onProject(project, u);

  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
    reporter = await world.user('rep');
    guestAuthor = await world.user('gauthor');
    guest = await world.user('gst');
    const group = await world.group('g');
    project = await world.project('p', { group });
    await world.member(project, reporter, AccessLevel.REPORTER);
    await world.member(project, guestAuthor, AccessLevel.GUEST);
    await world.member(project, guest, AccessLevel.GUEST);
    const m = await as(reporter).post(`/api/v4/projects/${project.id}/milestones`).send({ title: 'v1' });
    milestoneId = m.body.id;
  });
  afterAll(() => svc?.stop());

  beforeEach(async () => {
    const res = await as(guestAuthor).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'Original', description: 'd' }).expect(201);
    iid = res.body.iid;
  });

  it('closes and reopens with state_event, recording closed_by and events', async () => {
    const closed = await as(reporter).put(path(iid)).send({ state_event: 'close' }).expect(200);
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { id: reporter.id } });
    expect(closed.body.closed_at).toEqual(expect.any(String));
    const reopened = await as(reporter).put(path(iid)).send({ state_event: 'reopen' }).expect(200);
    expect(reopened.body).toMatchObject({ state: 'opened', closed_by: null, closed_at: null });
    const types = (await svc.deps.db('outbox').where('type', 'like', 'work-items.issue.%').whereRaw("data->>'id' = ?", [String(closed.body.id)]).orderBy('id')).map((r: { type: string }) => r.type);
    expect(types).toEqual(['work-items.issue.created', 'work-items.issue.closed', 'work-items.issue.reopened']);
  });

  it('sets labels, adds and removes them', async () => {
    expect((await as(reporter).put(path(iid)).send({ labels: 'a,b' }).expect(200)).body.labels).toEqual(['a', 'b']);
    expect((await as(reporter).put(path(iid)).send({ add_labels: 'c' }).expect(200)).body.labels).toEqual(['a', 'b', 'c']);
    expect((await as(reporter).put(path(iid)).send({ remove_labels: ['a'] }).expect(200)).body.labels).toEqual(['b', 'c']);
    const cleared = await as(reporter).put(path(iid)).send({ labels: '' }).expect(200);
    expect(cleared.body.labels).toEqual([]);
    const events = await svc.deps.db('outbox').where({ type: 'work-items.issue.updated' }).whereRaw("data->>'id' = ?", [String(cleared.body.id)]).orderBy('id');
    expect(events.map((e: { data: { labels: string[] } }) => e.data.labels)).toEqual([['a', 'b'], ['a', 'b', 'c'], ['b', 'c'], []]);
  });

  it('keeps label filters in step with the labels under concurrent edits of one issue', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    await Promise.all(names.map((n) => as(reporter).put(path(iid)).send({ add_labels: n })));
    const shown: string[] = (await as(reporter).get(path(iid)).expect(200)).body.labels;
    const found = await Promise.all(names.map(async (n) => (await as(reporter).get(`/api/v4/projects/${project.id}/issues?labels=${n}&iids[]=${iid}`).expect(200)).body.length === 1));
    expect(names.filter((_, k) => found[k])).toEqual(shown);
  });

  it('assigns and unassigns, sets milestone, due date, confidential, weight and issue_type', async () => {
    const res = await as(reporter).put(path(iid)).send({ assignee_ids: [guest.id], milestone_id: milestoneId, due_date: '2031-02-03', confidential: true, weight: 3, issue_type: 'incident' }).expect(200);
    expect(res.body).toMatchObject({ due_date: '2031-02-03', confidential: true, weight: 3, issue_type: 'incident', type: 'INCIDENT', milestone: { id: milestoneId, title: 'v1' } });
    expect(res.body.assignees.map((u: { id: number }) => u.id)).toEqual([guest.id]);
    const cleared = await as(reporter).put(path(iid)).send({ assignee_id: 0, milestone_id: 0, due_date: null, weight: null }).expect(200);
    expect(cleared.body).toMatchObject({ assignees: [], assignee: null, milestone: null, due_date: null, weight: null });
    const assignedTo = async (id: number) => (await as(reporter).get(`/api/v4/projects/${project.id}/issues?assignee_id=${id}&iids[]=${iid}`).expect(200)).body.length;
    expect(await assignedTo(guest.id)).toBe(0);
    await as(reporter).put(path(iid)).send({ assignee_ids: [guest.id, reporter.id] }).expect(200);
    expect([await assignedTo(guest.id), await assignedTo(reporter.id)]).toEqual([1, 1]);
  });

  it('lets the guest author edit the title but drops the metadata', async () => {
    const res = await as(guestAuthor).put(path(iid)).send({ title: 'Renamed', labels: 'x' }).expect(200);
    expect(res.body).toMatchObject({ title: 'Renamed', labels: [] });
  });

  it('is 403 for a guest who is not the author', async () => {
    expect((await as(guest).put(path(iid)).send({ title: 'Nope' }).expect(403)).body).toEqual({ message: '403 Forbidden' });
  });

  it('needs at least one attribute', async () => {
    const res = await as(reporter).put(path(iid)).send({}).expect(400);
    expect(res.body.error).toMatch(/^assignee_id, assignee_ids, confidential, .* are missing, at least one parameter must be provided$/);
  });

  it('rejects an unknown state_event', async () => {
    expect((await as(reporter).put(path(iid)).send({ state_event: 'merge' }).expect(400)).body).toEqual({ error: 'state_event does not have a valid value' });
  });

  it('does not move updated_at when nothing changes', async () => {
    const before = await as(reporter).get(path(iid)).expect(200);
    const same = await as(reporter).put(path(iid)).send({ title: 'Original' }).expect(200);
    expect(same.body.updated_at).toBe(before.body.updated_at);
  });

  it('is 404 for an unknown issue', async () => {
    await as(reporter).put(path(9999)).send({ title: 'x' }).expect(404, { message: '404 Not found' });
  });
});
