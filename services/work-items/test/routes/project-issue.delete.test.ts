import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { AccessLevel, ProjectInfo, startWorkItems, World } from '../support/world';

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  let svc: TestService;
  let world: World;
  let owner: Actor;
  let maintainer: Actor;
  let admin: Actor;
  let project: ProjectInfo;

  const create = async () => (await world.onProject(project, maintainer).post(`/api/v4/projects/${project.id}/issues`).send({ title: 't' }).expect(201)).body;

  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
    owner = await world.user('own');
    maintainer = await world.user('mnt');
    admin = await world.user('adm', { admin: true });
    project = await world.project('p');
    await world.member(project, owner, AccessLevel.OWNER);
    await world.member(project, maintainer, AccessLevel.MAINTAINER);
  });
  afterAll(() => svc?.stop());

  it('lets the owner delete (204, gone, event written)', async () => {
    const issue = await create();
    const res = await world.onProject(project, owner).delete(`/api/v4/projects/${project.id}/issues/${issue.iid}`).expect(204);
    expect(res.text).toBe('');
    await world.onProject(project, owner).get(`/api/v4/projects/${project.id}/issues/${issue.iid}`).expect(404, { message: '404 Not found' });
    const ev = await svc.deps.db('outbox').where({ type: 'work-items.issue.deleted' }).whereRaw("data->>'id' = ?", [String(issue.id)]).first();
    expect(ev).toBeDefined();
  });

  it('lets an administrator delete', async () => {
    const issue = await create();
    await world.onProject(project, admin).delete(`/api/v4/projects/${project.id}/issues/${issue.iid}`).expect(204, '');
    await world.onProject(project, owner).get(`/api/v4/projects/${project.id}/issues/${issue.iid}`).expect(404, { message: '404 Not found' });
  });

  it('is 403 for a maintainer and 404 Issue Not Found for an unknown iid', async () => {
    const issue = await create();
    await world.onProject(project, maintainer).delete(`/api/v4/projects/${project.id}/issues/${issue.iid}`).expect(403, { message: '403 Forbidden' });
    expect((await world.onProject(project, owner).get(`/api/v4/projects/${project.id}/issues/${issue.iid}`).expect(200)).body.id).toBe(issue.id);
    expect((await world.onProject(project, owner).delete(`/api/v4/projects/${project.id}/issues/999`).expect(404)).body).toEqual({ message: '404 Issue Not Found' });
  });
});
