import { addMember, asOnGroup, asOnProject, events, Identity, makeGroup, makeProject, makeUser, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('group membership inheritance', () => {
  it('gives a group member access to private projects of its subgroups, at the highest level held', async () => {
    const owner = await makeUser(svc);
    const dev = await makeUser(svc);
    const top = await makeGroup(svc, owner);
    const mid = await makeGroup(svc, owner, { parent_id: top.id });
    const leaf = await makeGroup(svc, owner, { parent_id: mid.id });
    const project = await makeProject(svc, owner, { namespace_id: leaf.id });
    expect((await svc.as({ user: dev }).get(`/api/v4/projects/${project.id}`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
    await (await asOnGroup(svc, owner, top.id)).post(`/api/v4/groups/${top.id}/members`).send({ user_id: dev.id, access_level: 20 }).expect(201);
    await (await asOnGroup(svc, owner, mid.id)).post(`/api/v4/groups/${mid.id}/members`).send({ user_id: dev.id, access_level: 30 }).expect(201);
    const res = await (await asOnProject(svc, dev, project.id)).get(`/api/v4/projects/${project.id}`).expect(200);
    expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    const leafView = await (await asOnGroup(svc, dev, leaf.id)).get(`/api/v4/groups/${leaf.id}/members/all`).expect(200);
    expect(leafView.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]).sort()).toEqual([[owner.id, 50], [dev.id, 30]].sort());
  });
});

describe('POST /groups/:id/members', () => {
  it('is Owner-only (a Maintainer gets 403)', async () => {
    const owner = await makeUser(svc);
    const maintainer = await makeUser(svc);
    const other = await makeUser(svc);
    const g = await makeGroup(svc, owner);
    await addMember(svc, 'groups', g.id, maintainer, 40);
    expect((await (await asOnGroup(svc, maintainer, g.id)).post(`/api/v4/groups/${g.id}/members`).send({ user_id: other.id, access_level: 10 }).expect(403)).body).toEqual({ message: '403 Forbidden' });
    const res = await (await asOnGroup(svc, owner, g.id)).post(`/api/v4/groups/${g.id}/members`).send({ user_id: other.id, access_level: 10 }).expect(201);
    expect(res.body).toMatchObject({ id: other.id, access_level: 10 });
    expect(await events(svc, 'identity.membership.created', { source_type: 'Namespace', source_id: g.id, user_id: other.id })).toHaveLength(1);
  });

  it('returns 409 for an existing member', async () => {
    const owner = await makeUser(svc);
    const g = await makeGroup(svc, owner);
    const res = await (await asOnGroup(svc, owner, g.id)).post(`/api/v4/groups/${g.id}/members`).send({ user_id: owner.id, access_level: 10 }).expect(409);
    expect(res.body).toEqual({ message: 'Member already exists' });
  });
});

describe('PUT and DELETE /groups/:id/members/:user_id', () => {
  it('keeps the last Owner (403) and lets a second Owner take over', async () => {
    const owner = await makeUser(svc);
    const next = await makeUser(svc);
    const g = await makeGroup(svc, owner);
    expect((await (await asOnGroup(svc, owner, g.id)).put(`/api/v4/groups/${g.id}/members/${owner.id}`).send({ access_level: 40 }).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await (await asOnGroup(svc, owner, g.id)).delete(`/api/v4/groups/${g.id}/members/${owner.id}`).expect(403)).body).toEqual({ message: '403 Forbidden' });
    await (await asOnGroup(svc, owner, g.id)).post(`/api/v4/groups/${g.id}/members`).send({ user_id: next.id, access_level: 50 }).expect(201);
    await (await asOnGroup(svc, next, g.id)).delete(`/api/v4/groups/${g.id}/members/${owner.id}`).expect(204);
    expect(await svc.deps.db('members').where({ source_type: 'Namespace', source_id: g.id }).select('user_id')).toEqual([{ user_id: next.id }]);
  });

  it('updates a member’s level and expiry', async () => {
    const owner = await makeUser(svc);
    const dev = await makeUser(svc);
    const g = await makeGroup(svc, owner);
    await addMember(svc, 'groups', g.id, dev, 30);
    const res = await (await asOnGroup(svc, owner, g.id)).put(`/api/v4/groups/${g.id}/members/${dev.id}`).send({ access_level: 20, expires_at: '2999-12-31' }).expect(200);
    expect(res.body).toMatchObject({ id: dev.id, access_level: 20, expires_at: '2999-12-31' });
  });
});

describe('GET /groups/:id/members', () => {
  it('lists direct members to a member of a private group, 404 to others', async () => {
    const owner = await makeUser(svc);
    const other = await makeUser(svc);
    const g = await makeGroup(svc, owner);
    const res = await (await asOnGroup(svc, owner, g.id)).get(`/api/v4/groups/${g.id}/members`).expect(200);
    expect(res.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
    expect((await svc.as({ user: other }).get(`/api/v4/groups/${g.id}/members`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });
});
