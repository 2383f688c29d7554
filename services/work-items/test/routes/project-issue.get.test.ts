import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { AccessLevel, ProjectInfo, startWorkItems, World } from '../support/world';

describe('GET /projects/:id/issues/:issue_iid', () => {
  let svc: TestService;
  let world: World;
  let author: Actor;
  let reporter: Actor;
  let guest: Actor;
  let assignee: Actor;
  let outsider: Actor;
  let admin: Actor;
  let project: ProjectInfo;
  let publicProject: ProjectInfo;

  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
    [author, reporter, guest, assignee, outsider] = await Promise.all(['author', 'rep', 'gst', 'asg', 'out'].map((u) => world.user(u)));
    admin = await world.user('root', { admin: true });
    const group = await world.group('g1');
    project = await world.project('p1', { group });
    publicProject = await world.project('pub', { group, visibility: 'public' });
    for (const p of [project, publicProject]) {
      await world.member(p, reporter, AccessLevel.REPORTER);
      await world.member(p, guest, AccessLevel.GUEST);
      await world.member(p, author, AccessLevel.GUEST);
      await world.member(p, assignee, AccessLevel.GUEST);
    }
    await world.onProject(project, reporter).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'open issue' }).expect(201);
    await world.onProject(publicProject, reporter).post(`/api/v4/projects/${publicProject.id}/issues`).send({ title: 'public issue' }).expect(201);
    await world.onProject(publicProject, author).post(`/api/v4/projects/${publicProject.id}/issues`).send({ title: 'secret', confidential: true }).expect(201);
    await world.onProject(publicProject, reporter).put(`/api/v4/projects/${publicProject.id}/issues/2`).send({ assignee_ids: [assignee.id] }).expect(200);
  });
  afterAll(() => svc?.stop());

  it('returns the issue with subscribed for the caller', async () => {
    const res = await world.onProject(project, reporter).get(`/api/v4/projects/${project.id}/issues/1`).expect(200);
    expect(res.body).toMatchObject({ iid: 1, title: 'open issue', subscribed: true });
    const other = await world.onProject(project, guest).get(`/api/v4/projects/${project.id}/issues/1`).expect(200);
    expect(other.body.subscribed).toBe(false);
  });

  it('answers 404 Not found for an unknown iid and 400 for a bad one', async () => {
    expect((await world.onProject(project, reporter).get(`/api/v4/projects/${project.id}/issues/99`).expect(404)).body).toEqual({ message: '404 Not found' });
    expect((await world.onProject(project, reporter).get(`/api/v4/projects/${project.id}/issues/abc`).expect(400)).body).toEqual({ error: 'issue_iid is invalid' });
  });

  describe('a public issue', () => {
    it('is readable anonymously and by non-members', async () => {
      const anonymous = await world.onProject(publicProject, null).get(`/api/v4/projects/${publicProject.id}/issues/1`).expect(200);
      expect(anonymous.body).toMatchObject({ iid: 1, title: 'public issue', project_id: publicProject.id, subscribed: false });
      const outside = await world.onProject(publicProject, outsider).get(`/api/v4/projects/${publicProject.id}/issues/1`).expect(200);
      expect(outside.body).toEqual(anonymous.body);
    });
  });

  describe('a confidential issue', () => {
    const path = () => `/api/v4/projects/${publicProject.id}/issues/2`;
    it('is 404 for anonymous, non-members and guests', async () => {
      await world.onProject(publicProject, null).get(path()).expect(404, { message: '404 Not found' });
      await world.onProject(publicProject, outsider).get(path()).expect(404, { message: '404 Not found' });
      await world.onProject(publicProject, guest).get(path()).expect(404, { message: '404 Not found' });
    });
    it('is visible to its author, its assignees, reporters and admins', async () => {
      for (const u of [author, assignee, reporter, admin]) {
        const res = await world.onProject(publicProject, u).get(path()).expect(200);
        expect(res.body.confidential).toBe(true);
      }
    });
  });

  it('shows the author under the new name after a rename (joined, not copied)', async () => {
    await world.renameUser(reporter, 'renamed', 'Renamed Person');
    const res = await world.onProject(project, guest).get(`/api/v4/projects/${project.id}/issues/1`).expect(200);
    expect(res.body.author).toMatchObject({ id: reporter.id, username: 'renamed', name: 'Renamed Person', web_url: 'http://127.0.0.1:8080/renamed' });
  });

  it('ignores a stale user event that arrives after a newer one', async () => {
    await svc.deps.bus.publish({ id: '00000000-0000-4000-8000-000000000001', type: 'identity.user.updated', occurred_at: '2000-01-01T00:00:00.000Z', producer: 'identity', version: 1, data: { id: reporter.id, username: 'stale', name: 'Stale', state: 'active', avatar_url: null, web_url: 'x', admin: false } });
    await world.renameUser(author, 'author', 'author');
    const res = await world.onProject(project, guest).get(`/api/v4/projects/${project.id}/issues/1`).expect(200);
    expect(res.body.author.username).toBe('renamed');
  });
});
