import { addMember, asOnProject, events, Identity, makeGroup, makeProject, makeUser, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('PUT /projects/:id', () => {
  describe('as a Maintainer', () => {
    it('updates description and settings, and writes identity.project.updated', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const project = await makeProject(svc, owner);
      await addMember(svc, 'projects', project.id, maintainer, 40);
      const res = await (await asOnProject(svc, maintainer, project.id))
        .put(`/api/v4/projects/${project.id}`)
        .send({ description: 'new text', merge_method: 'ff', wiki_enabled: false, topics: ['x'] })
        .expect(200);
      expect(res.body).toMatchObject({ id: project.id, description: 'new text', merge_method: 'ff', wiki_enabled: false, wiki_access_level: 'disabled', topics: ['x'] });
      const stored = await svc.deps.db('projects').where({ id: project.id }).first();
      expect(stored.settings).toMatchObject({ merge_method: 'ff', wiki_access_level: 'disabled' });
      expect(await events(svc, 'identity.project.updated', { id: project.id })).toHaveLength(1);
    });

    it('may not rename or change visibility (Owner only)', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const project = await makeProject(svc, owner);
      await addMember(svc, 'projects', project.id, maintainer, 40);
      const c = await asOnProject(svc, maintainer, project.id);
      expect((await c.put(`/api/v4/projects/${project.id}`).send({ name: 'renamed' }).expect(403)).body).toEqual({ message: '403 Forbidden' });
      const c2 = await asOnProject(svc, maintainer, project.id);
      expect((await c2.put(`/api/v4/projects/${project.id}`).send({ visibility: 'public' }).expect(403)).body).toEqual({ message: '403 Forbidden' });
      const after = await (await asOnProject(svc, owner, project.id)).get(`/api/v4/projects/${project.id}`).expect(200);
      expect(after.body).toMatchObject({ path_with_namespace: project.path_with_namespace, visibility: 'private' });
      expect(after.body.name).not.toBe('renamed');
      expect(await events(svc, 'identity.project.updated', { id: project.id })).toEqual([]);
    });
  });

  describe('as the Owner', () => {
    it('renames the path; the project resolves by its new path', async () => {
      const owner = await makeUser(svc);
      const project = await makeProject(svc, owner, { path: 'before' });
      const res = await (await asOnProject(svc, owner, project.id)).put(`/api/v4/projects/${project.id}`).send({ path: 'after', name: 'After', visibility: 'internal' }).expect(200);
      expect(res.body).toMatchObject({ path: 'after', name: 'After', path_with_namespace: `${owner.username}/after`, visibility: 'internal' });
      const [ev] = await events(svc, 'identity.project.updated', { id: project.id });
      expect(ev.data).toMatchObject({ path: 'after', path_with_namespace: `${owner.username}/after`, visibility: 'internal' });
    });

    it('returns 400 when the new path is taken', async () => {
      const owner = await makeUser(svc);
      await makeProject(svc, owner, { path: 'taken' });
      const project = await makeProject(svc, owner);
      const res = await (await asOnProject(svc, owner, project.id)).put(`/api/v4/projects/${project.id}`).send({ path: 'TAKEN' }).expect(400);
      expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('returns 400 when no attribute is given', async () => {
      const owner = await makeUser(svc);
      const project = await makeProject(svc, owner);
      const res = await (await asOnProject(svc, owner, project.id)).put(`/api/v4/projects/${project.id}`).send({}).expect(400);
      expect(res.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    });

    it('refuses a visibility above the group’s', async () => {
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner, { visibility: 'internal' });
      const project = await makeProject(svc, owner, { namespace_id: group.id });
      const res = await (await asOnProject(svc, owner, project.id)).put(`/api/v4/projects/${project.id}`).send({ visibility: 'public' }).expect(400);
      expect(res.body).toEqual({ message: { visibility_level: ['public is not allowed in a internal group.'] } });
    });
  });

  describe('as a Developer', () => {
    it('returns 403', async () => {
      const owner = await makeUser(svc);
      const dev = await makeUser(svc);
      const project = await makeProject(svc, owner);
      await addMember(svc, 'projects', project.id, dev, 30);
      const res = await (await asOnProject(svc, dev, project.id)).put(`/api/v4/projects/${project.id}`).send({ description: 'x' }).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('as a non-member of a private project', () => {
    it('returns 404', async () => {
      const owner = await makeUser(svc);
      const other = await makeUser(svc);
      const project = await makeProject(svc, owner);
      const res = await svc.as({ user: other }).put(`/api/v4/projects/${project.id}`).send({ description: 'x' }).expect(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
      const after = await (await asOnProject(svc, owner, project.id)).get(`/api/v4/projects/${project.id}`).expect(200);
      expect(after.body.description).toBeNull();
      expect(await events(svc, 'identity.project.updated', { id: project.id })).toEqual([]);
    });
  });
});
