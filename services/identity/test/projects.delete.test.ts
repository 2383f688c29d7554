import { addMember, asOnProject, events, Identity, makeProject, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('DELETE /projects/:id', () => {
  describe('as the Owner', () => {
    it('answers 202, deletes the project and its members, and writes the deleted events', async () => {
      const owner = await makeUser(svc);
      const dev = await makeUser(svc);
      const project = await makeProject(svc, owner);
      await addMember(svc, 'projects', project.id, dev, 30);
      const res = await (await asOnProject(svc, owner, project.id)).delete(`/api/v4/projects/${project.id}`).set('content-type', 'application/json').expect(202);
      expect(res.body).toEqual({ message: '202 Accepted' });
      expect(await svc.deps.db('projects').where({ id: project.id }).first()).toBeUndefined();
      expect(await svc.deps.db('members').where({ source_type: 'Project', source_id: project.id })).toEqual([]);
      const [ev] = await events(svc, 'identity.project.deleted', { id: project.id });
      expect(ev.data).toMatchObject({ id: project.id, path_with_namespace: project.path_with_namespace });
      expect(await events(svc, 'identity.membership.deleted', { source_type: 'Project', source_id: project.id })).toHaveLength(2);
    });
  });

  describe('as an administrator', () => {
    it('answers 202 and the project is gone', async () => {
      const owner = await makeUser(svc);
      const project = await makeProject(svc, owner);
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).delete(`/api/v4/projects/${project.id}`).expect(202);
      expect(res.body).toEqual({ message: '202 Accepted' });
      expect((await svc.as({ user: root }).get(`/api/v4/projects/${project.id}`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
      expect((await svc.as({ user: owner }).get(`/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
      expect(await events(svc, 'identity.project.deleted', { id: project.id })).toHaveLength(1);
    });
  });

  describe('as a Maintainer', () => {
    it('returns 403 and keeps the project', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const project = await makeProject(svc, owner);
      await addMember(svc, 'projects', project.id, maintainer, 40);
      const res = await (await asOnProject(svc, maintainer, project.id)).delete(`/api/v4/projects/${project.id}`).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      expect(await svc.deps.db('projects').where({ id: project.id }).first()).toBeDefined();
    });
  });

  describe('anonymous, on a public project', () => {
    it('returns 401 and keeps the project', async () => {
      const owner = await makeUser(svc);
      const project = await makeProject(svc, owner, { visibility: 'public' });
      const res = await svc.as({ user: null }).delete(`/api/v4/projects/${project.id}`).expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
      expect((await svc.as({ user: owner }).get(`/api/v4/projects/${project.id}`).expect(200)).body.id).toBe(project.id);
      expect(await events(svc, 'identity.project.deleted', { id: project.id })).toEqual([]);
    });
  });
});
