import type { Actor } from '@anvil/auth';
import { addMember, asOnProject, events, Identity, makeGroup, makeProject, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const MEMBER_FIELDS = ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url', 'access_level', 'created_at', 'created_by', 'expires_at'];

async function setup() {
  const owner = await makeUser(svc);
  const project = await makeProject(svc, owner);
  return { owner, project };
}

describe('POST /projects/:id/members', () => {
  describe('as the Owner', () => {
    it('adds a member and writes identity.membership.created', async () => {
      const { owner, project } = await setup();
      const dev = await makeUser(svc);
      const res = await (await asOnProject(svc, owner, project.id)).post(`/api/v4/projects/${project.id}/members`).send({ user_id: dev.id, access_level: 30, expires_at: '2999-01-01' }).expect(201);
      expect(Object.keys(res.body)).toEqual(MEMBER_FIELDS);
      expect(res.body).toMatchObject({ id: dev.id, username: dev.username, access_level: 30, expires_at: '2999-01-01', created_by: { id: owner.id } });
      const [ev] = await events(svc, 'identity.membership.created', { source_type: 'Project', source_id: project.id, user_id: dev.id });
      expect(ev.data).toEqual({ source_type: 'Project', source_id: project.id, user_id: dev.id, access_level: 30, expires_at: '2999-01-01' });
    });

    it('returns 409 "Member already exists"', async () => {
      const { owner, project } = await setup();
      const dev = await makeUser(svc);
      await addMember(svc, 'projects', project.id, dev, 30);
      const res = await (await asOnProject(svc, owner, project.id)).post(`/api/v4/projects/${project.id}/members`).send({ user_id: dev.id, access_level: 20 }).expect(409);
      expect(res.body).toEqual({ message: 'Member already exists' });
    });

    it('returns 404 User Not Found and 400 for a bad access level', async () => {
      const { owner, project } = await setup();
      const c = await asOnProject(svc, owner, project.id);
      expect((await c.post(`/api/v4/projects/${project.id}/members`).send({ user_id: 999999, access_level: 30 }).expect(404)).body).toEqual({ message: '404 User Not Found' });
      const c2 = await asOnProject(svc, owner, project.id);
      expect((await c2.post(`/api/v4/projects/${project.id}/members`).send({ user_id: owner.id, access_level: 35 }).expect(400)).body).toEqual({ error: 'access_level does not have a valid value' });
      const c3 = await asOnProject(svc, owner, project.id);
      expect((await c3.post(`/api/v4/projects/${project.id}/members`).send({}).expect(400)).body).toEqual({ error: 'user_id, access_level are missing' });
    });
  });

  describe('as a Maintainer', () => {
    it('adds Developers but not Owners', async () => {
      const { project } = await setup();
      const maintainer = await makeUser(svc);
      const dev = await makeUser(svc);
      await addMember(svc, 'projects', project.id, maintainer, 40);
      const refused = await (await asOnProject(svc, maintainer, project.id)).post(`/api/v4/projects/${project.id}/members`).send({ user_id: dev.id, access_level: 50 }).expect(403);
      expect(refused.body).toEqual({ message: '403 Forbidden' });
      const added = await (await asOnProject(svc, maintainer, project.id)).post(`/api/v4/projects/${project.id}/members`).send({ user_id: dev.id, access_level: 30 }).expect(201);
      expect(added.body).toMatchObject({ id: dev.id, username: dev.username, access_level: 30 });
      const shown = await (await asOnProject(svc, maintainer, project.id)).get(`/api/v4/projects/${project.id}/members/${dev.id}`).expect(200);
      expect(shown.body).toMatchObject({ id: dev.id, access_level: 30 });
      expect(await events(svc, 'identity.membership.created', { source_id: project.id, user_id: dev.id })).toHaveLength(1);
    });
  });

  describe('as a Developer', () => {
    it('returns 403', async () => {
      const { project } = await setup();
      const dev = await makeUser(svc);
      const other = await makeUser(svc);
      await addMember(svc, 'projects', project.id, dev, 30);
      const res = await (await asOnProject(svc, dev, project.id)).post(`/api/v4/projects/${project.id}/members`).send({ user_id: other.id, access_level: 10 }).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      const members = await (await asOnProject(svc, dev, project.id)).get(`/api/v4/projects/${project.id}/members`).expect(200);
      expect(members.body.map((m: { id: number }) => m.id)).not.toContain(other.id);
    });
  });
});

describe('GET /projects/:id/members', () => {
  it('lists direct members; /all adds inherited group members with the highest level', async () => {
    const gOwner = await makeUser(svc);
    const both = await makeUser(svc);
    const group = await makeGroup(svc, gOwner);
    const project = await makeProject(svc, gOwner, { namespace_id: group.id });
    await addMember(svc, 'groups', group.id, both, 40);
    await addMember(svc, 'projects', project.id, both, 20);
    const c = await asOnProject(svc, both, project.id);
    const direct = await c.get(`/api/v4/projects/${project.id}/members`).expect(200);
    expect(direct.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])).toEqual([[both.id, 20]]);
    const all = await (await asOnProject(svc, both, project.id)).get(`/api/v4/projects/${project.id}/members/all`).expect(200);
    expect(all.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]).sort()).toEqual([[gOwner.id, 50], [both.id, 40]].sort());
    expect(all.headers['x-total']).toBe('2');
  });

  it('filters by query', async () => {
    const { owner, project } = await setup();
    const dev = await makeUser(svc);
    await addMember(svc, 'projects', project.id, dev, 30);
    const res = await (await asOnProject(svc, owner, project.id)).get(`/api/v4/projects/${project.id}/members?query=${dev.username.slice(0, 8)}`).expect(200);
    expect(res.body.map((m: { id: number }) => m.id)).toContain(dev.id);
    expect(res.body.map((m: { id: number }) => m.id)).not.toContain(owner.id);
  });

  it('is 404 to a non-member of a private project', async () => {
    const { project } = await setup();
    const other = await makeUser(svc);
    const res = await svc.as({ user: other }).get(`/api/v4/projects/${project.id}/members`).expect(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /projects/:id/members/:user_id', () => {
  it('shows a direct member, 404 Not found otherwise (a find_by! miss); /all/:user_id includes inherited', async () => {
    const gOwner = await makeUser(svc);
    const group = await makeGroup(svc, gOwner);
    const project = await makeProject(svc, gOwner, { namespace_id: group.id });
    const c = () => asOnProject(svc, gOwner, project.id);
    const res = await (await c()).get(`/api/v4/projects/${project.id}/members/${gOwner.id}`).expect(404);
    expect(res.body).toEqual({ message: '404 Not found' });
    const all = await (await c()).get(`/api/v4/projects/${project.id}/members/all/${gOwner.id}`).expect(200);
    expect(all.body).toMatchObject({ id: gOwner.id, access_level: 50 });
  });
});

describe('PUT /projects/:id/members/:user_id', () => {
  it('changes the level and writes identity.membership.updated', async () => {
    const { owner, project } = await setup();
    const dev = await makeUser(svc);
    await addMember(svc, 'projects', project.id, dev, 30);
    const res = await (await asOnProject(svc, owner, project.id)).put(`/api/v4/projects/${project.id}/members/${dev.id}`).send({ access_level: 40 }).expect(200);
    expect(res.body).toMatchObject({ id: dev.id, access_level: 40 });
    expect(await events(svc, 'identity.membership.updated', { source_id: project.id, user_id: dev.id, access_level: 40 })).toHaveLength(1);
  });

  it('returns 404 for a non-member and 403 when a Maintainer touches the Owner', async () => {
    const { owner, project } = await setup();
    const maintainer = await makeUser(svc);
    await addMember(svc, 'projects', project.id, maintainer, 40);
    const stranger: Actor = await makeUser(svc);
    await (await asOnProject(svc, owner, project.id)).put(`/api/v4/projects/${project.id}/members/${stranger.id}`).send({ access_level: 30 }).expect(404, { message: '404 Not found' });
    const refused = await (await asOnProject(svc, maintainer, project.id)).put(`/api/v4/projects/${project.id}/members/${owner.id}`).send({ access_level: 30 }).expect(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    const members = await (await asOnProject(svc, owner, project.id)).get(`/api/v4/projects/${project.id}/members`).expect(200);
    expect(members.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]).sort()).toEqual([[owner.id, 50], [maintainer.id, 40]].sort());
    expect(await events(svc, 'identity.membership.updated', { source_id: project.id })).toEqual([]);
  });
});

describe('DELETE /projects/:id/members/:user_id', () => {
  it('removes the member (204) and writes identity.membership.deleted; the project then is 404 to them', async () => {
    const { owner, project } = await setup();
    const dev = await makeUser(svc);
    await addMember(svc, 'projects', project.id, dev, 30);
    await (await asOnProject(svc, dev, project.id)).get(`/api/v4/projects/${project.id}`).expect(200);
    await (await asOnProject(svc, owner, project.id)).delete(`/api/v4/projects/${project.id}/members/${dev.id}`).expect(204);
    expect(await events(svc, 'identity.membership.deleted', { source_id: project.id, user_id: dev.id })).toHaveLength(1);
    expect((await svc.as({ user: dev }).get(`/api/v4/projects/${project.id}`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
  });

  it('lets a member leave, and answers 404 for a non-member', async () => {
    const { owner, project } = await setup();
    const dev = await makeUser(svc);
    await addMember(svc, 'projects', project.id, dev, 30);
    await (await asOnProject(svc, dev, project.id)).delete(`/api/v4/projects/${project.id}/members/${dev.id}`).expect(204);
    const root = await rootActor(svc);
    const res = await svc.as({ user: root }).delete(`/api/v4/projects/${project.id}/members/${dev.id}`).expect(404);
    expect(res.body).toEqual({ message: '404 Not found' });
    expect(owner).toBeDefined();
  });
});
