import { addMember, asOnGroup, events, Identity, makeGroup, makeProject, makeUser, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('PUT /groups/:id', () => {
  describe('as the Owner', () => {
    it('renames the path, rewriting descendants’ full paths, and writes identity.group.updated', async () => {
      const owner = await makeUser(svc);
      const g = await makeGroup(svc, owner);
      const sub = await makeGroup(svc, owner, { parent_id: g.id, path: 'sub' });
      const project = await makeProject(svc, owner, { namespace_id: sub.id, path: 'p' });
      const res = await (await asOnGroup(svc, owner, g.id)).put(`/api/v4/groups/${g.id}`).send({ path: `${g.path}-new`, description: 'changed', visibility: 'internal', project_creation_level: 'developer' }).expect(200);
      expect(res.body).toMatchObject({ path: `${g.path}-new`, full_path: `${g.path}-new`, description: 'changed', visibility: 'internal', project_creation_level: 'developer' });
      expect((await svc.deps.db('namespaces').where({ id: sub.id }).first()).full_path).toBe(`${g.path}-new/sub`);
      const moved = await svc.as({ user: owner }).get(`/api/v4/projects/${encodeURIComponent(`${g.path}-new/sub/p`)}`).expect(200);
      expect(moved.body.id).toBe(project.id);
      const [ev] = await events(svc, 'identity.group.updated', { id: g.id });
      expect(ev.data).toMatchObject({ full_path: `${g.path}-new`, visibility: 'internal' });
    });

    it('returns 400 with field errors for a taken path', async () => {
      const owner = await makeUser(svc);
      const a = await makeGroup(svc, owner);
      const b = await makeGroup(svc, owner);
      const res = await (await asOnGroup(svc, owner, b.id)).put(`/api/v4/groups/${b.id}`).send({ path: a.path }).expect(400);
      expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('refuses to make the group less visible than its projects', async () => {
      const owner = await makeUser(svc);
      const g = await makeGroup(svc, owner, { visibility: 'public' });
      await makeProject(svc, owner, { namespace_id: g.id, visibility: 'public' });
      const res = await (await asOnGroup(svc, owner, g.id)).put(`/api/v4/groups/${g.id}`).send({ visibility: 'private' }).expect(400);
      expect(res.body).toEqual({ message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] } });
    });
  });

  describe('as a Maintainer', () => {
    it('returns 403', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const g = await makeGroup(svc, owner);
      await addMember(svc, 'groups', g.id, maintainer, 40);
      const res = await (await asOnGroup(svc, maintainer, g.id)).put(`/api/v4/groups/${g.id}`).send({ description: 'x' }).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      const after = await (await asOnGroup(svc, owner, g.id)).get(`/api/v4/groups/${g.id}`).expect(200);
      expect(after.body.description).toBe('');
      expect(await events(svc, 'identity.group.updated', { id: g.id })).toEqual([]);
    });
  });
});

describe('DELETE /groups/:id', () => {
  describe('as the Owner', () => {
    it('answers 202 and removes the group, its subgroups, their projects and memberships, with events', async () => {
      const owner = await makeUser(svc);
      const g = await makeGroup(svc, owner);
      const sub = await makeGroup(svc, owner, { parent_id: g.id });
      const project = await makeProject(svc, owner, { namespace_id: sub.id });
      const res = await (await asOnGroup(svc, owner, g.id)).delete(`/api/v4/groups/${g.id}`).expect(202);
      expect(res.body).toEqual({ message: '202 Accepted' });
      expect(await svc.deps.db('namespaces').whereIn('id', [g.id, sub.id])).toEqual([]);
      expect(await svc.deps.db('projects').where({ id: project.id }).first()).toBeUndefined();
      expect(await svc.deps.db('members').where({ source_type: 'Namespace' }).whereIn('source_id', [g.id, sub.id])).toEqual([]);
      expect(await events(svc, 'identity.project.deleted', { id: project.id })).toHaveLength(1);
      const deleted = (await events(svc, 'identity.group.deleted')).map((e) => e.data.id);
      expect(deleted.filter((id) => id === g.id || id === sub.id)).toEqual([sub.id, g.id]);
      expect(await events(svc, 'identity.membership.deleted', { source_type: 'Namespace', source_id: g.id, user_id: owner.id })).toHaveLength(1);
    });
  });

  describe('as a Maintainer', () => {
    it('returns 403', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const g = await makeGroup(svc, owner);
      await addMember(svc, 'groups', g.id, maintainer, 40);
      const res = await (await asOnGroup(svc, maintainer, g.id)).delete(`/api/v4/groups/${g.id}`).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      const after = await (await asOnGroup(svc, owner, g.id)).get(`/api/v4/groups/${g.id}`).expect(200);
      expect(after.body).toMatchObject({ id: g.id, full_path: g.full_path });
      expect(await events(svc, 'identity.group.deleted', { id: g.id })).toEqual([]);
    });
  });
});
