import type { Actor } from '@anvil/auth';
import { addMember, events, Identity, makeGroup, makeProject, makeUser, projectScopeFor, startIdentity, unique } from './helpers';

type G = { id: number; full_path: string };
let svc: Identity;
let ownerA: Actor, developerA: Actor, ownerB: Actor, developerB: Actor, parentMemberB: Actor, outsider: Actor;
let groupA: G, parentB: G, groupB: G, secretC: G;
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  svc = await startIdentity();
  const tag = unique('ps');
  [ownerA, developerA, ownerB, developerB, parentMemberB, outsider] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => makeUser(svc)));
  groupA = await makeGroup(svc, ownerA, { path: `${tag}-a` });
  parentB = await makeGroup(svc, ownerB, { path: `${tag}-pb` });
  groupB = await makeGroup(svc, ownerB, { path: `${tag}-b`, parent_id: parentB.id });
  secretC = await makeGroup(svc, outsider, { path: `${tag}-c` });
  project = await makeProject(svc, ownerA, { namespace_id: groupA.id, path: 'secret' });
  await addMember(svc, 'groups', groupA.id, developerA, 30);
  await addMember(svc, 'groups', groupB.id, developerB, 30);
  await addMember(svc, 'groups', parentB.id, parentMemberB, 50);
  // the project's Owner may see the group it invites
  await addMember(svc, 'groups', groupB.id, ownerA, 10);
});
afterAll(async () => svc?.stop());
beforeEach(async () => svc.deps.db('project_group_links').delete());

const share = (user: Actor | null, body: Record<string, unknown>, id: number | string = project.id) => svc.as({ user }).post(`/api/v4/projects/${id}/share`).send(body);
const unshare = (user: Actor | null, groupId: number | string) => svc.as({ user }).delete(`/api/v4/projects/${project.id}/share/${groupId}`);
const levelOf = async (user: Actor) => (await projectScopeFor(svc, project.id, user)).access_level;

describe('POST /projects/:id/share', () => {
  describe('as a Maintainer of the project', () => {
    it('returns 201 with the link and gives the invited group’s members (and its ancestors’) the lower of both levels', async () => {
      const res = await share(ownerA, { group_id: groupB.id, group_access: 20, expires_at: '2999-01-31' }).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), project_id: project.id, group_id: groupB.id, group_access: 20, expires_at: '2999-01-31' });
      expect(await levelOf(developerB)).toBe(20);
      expect(await levelOf(parentMemberB)).toBe(20);
      expect(await levelOf(outsider)).toBe(0);
      expect(await events(svc, 'identity.project_group_link.created', { project_id: project.id, group_id: groupB.id })).toEqual([
        expect.objectContaining({ producer: 'identity', data: { project_id: project.id, group_id: groupB.id, group_access: 20, expires_at: '2999-01-31' } }),
      ]);
    });

    it('lets the invited members read the private project and list it, and shows the share on the project', async () => {
      await share(ownerA, { group_id: groupB.id, group_access: 30 }).expect(201);
      const one = await svc.as({ user: developerB }).get(`/api/v4/projects/${project.id}`).expect(200);
      expect(one.body.shared_with_groups).toEqual([{ group_id: groupB.id, group_name: groupB.full_path.split('/').pop(), group_full_path: groupB.full_path, group_access_level: 30, expires_at: null }]);
      expect(one.body.permissions).toEqual({ project_access: null, group_access: null });
      const mine = await svc.as({ user: developerB }).get('/api/v4/projects?membership=true').expect(200);
      expect(mine.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
      const atLeast = await svc.as({ user: developerB }).get('/api/v4/projects?min_access_level=40').expect(200);
      expect(atLeast.body).toEqual([]);
      await svc.as({ user: outsider }).get(`/api/v4/projects/${project.id}`).expect(404);
    });

    it('lists the project among the group’s shared projects and (with_shared, the default) its projects', async () => {
      await share(ownerA, { group_id: groupB.id, group_access: 30 }).expect(201);
      const shared = await svc.as({ user: developerB }).get(`/api/v4/groups/${groupB.id}/projects/shared`).expect(200);
      expect(shared.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
      expect(shared.headers['x-total']).toBe('1');
      const all = await svc.as({ user: developerB }).get(`/api/v4/groups/${groupB.id}/projects`).expect(200);
      expect(all.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
      expect((await svc.as({ user: developerB }).get(`/api/v4/groups/${groupB.id}/projects?with_shared=false`).expect(200)).body).toEqual([]);
      const detail = await svc.as({ user: developerB }).get(`/api/v4/groups/${groupB.id}`).expect(200);
      expect(detail.body.shared_projects.map((p: { id: number }) => p.id)).toEqual([project.id]);
    });

    it('gives no access once the share has expired', async () => {
      await share(ownerA, { group_id: groupB.id, group_access: 30 }).expect(201);
      await svc.deps.db('project_group_links').update({ expires_at: svc.deps.db.raw("(now() AT TIME ZONE 'utc')::date") });
      expect(await levelOf(developerB)).toBe(0);
      await svc.as({ user: developerB }).get(`/api/v4/projects/${project.id}`).expect(404);
    });

    it('returns 409 for a second share with the same group and for the project’s own group', async () => {
      await share(ownerA, { group_id: groupB.id, group_access: 30 }).expect(201);
      expect((await share(ownerA, { group_id: groupB.id, group_access: 10 }).expect(409)).body).toEqual({ message: 'Group already shared with this group' });
      expect((await share(ownerA, { group_id: groupA.id, group_access: 10 }).expect(409)).body).toEqual({ message: 'Project cannot be shared with the group it is in or one of its ancestors.' });
    });

    it('returns 404 Not Found for a missing group or one the caller cannot see', async () => {
      expect((await share(ownerA, { group_id: 999999, group_access: 30 }).expect(404)).body).toEqual({ message: 'Not Found' });
      expect((await share(ownerA, { group_id: secretC.id, group_access: 30 }).expect(404)).body).toEqual({ message: 'Not Found' });
    });

    it('returns 400 for missing or invalid params', async () => {
      expect((await share(ownerA, { group_access: 30 }).expect(400)).body).toEqual({ error: 'group_id is missing' });
      expect((await share(ownerA, { group_id: groupB.id, group_access: 35 }).expect(400)).body).toEqual({ error: 'group_access does not have a valid value' });
      expect((await share(ownerA, { group_id: groupB.id, group_access: 30, expires_at: 'soon' }).expect(400)).body).toEqual({ error: 'expires_at is invalid' });
    });

    it('returns 400 when the project’s group locks sharing', async () => {
      const locked = await makeGroup(svc, ownerA, { share_with_group_lock: true });
      const inLocked = await makeProject(svc, ownerA, { namespace_id: locked.id });
      const res = await share(ownerA, { group_id: groupB.id, group_access: 30 }, inLocked.id).expect(400);
      expect(res.body).toEqual({ message: 'The project sharing with group is disabled' });
    });
  });

  describe('as a Developer, an outsider or anonymously', () => {
    it('returns 403, 404 and 401', async () => {
      expect((await share(developerA, { group_id: groupB.id, group_access: 30 }).expect(403)).body).toEqual({ message: '403 Forbidden' });
      expect((await share(outsider, { group_id: groupB.id, group_access: 30 }).expect(404)).body).toEqual({ message: '404 Project Not Found' });
      await share(null, { group_id: groupB.id, group_access: 30 }).expect(401);
      expect(await svc.deps.db('project_group_links')).toEqual([]);
    });
  });
});

describe('DELETE /projects/:id/share/:group_id', () => {
  it('returns 204, ends the access and announces it', async () => {
    await share(ownerA, { group_id: groupB.id, group_access: 30 }).expect(201);
    await unshare(ownerA, groupB.id).expect(204);
    expect(await levelOf(developerB)).toBe(0);
    expect(await svc.deps.db('project_group_links')).toEqual([]);
    expect(await events(svc, 'identity.project_group_link.deleted', { project_id: project.id, group_id: groupB.id })).not.toEqual([]);
  });

  it('returns 404 Group Link Not Found when not shared, 400 for a non-integer group id', async () => {
    expect((await unshare(ownerA, groupB.id).expect(404)).body).toEqual({ message: '404 Group Link Not Found' });
    expect((await unshare(ownerA, 'abc').expect(400)).body).toEqual({ error: 'group_id is invalid' });
  });

  it('returns 403 for a Developer and leaves the share', async () => {
    await share(ownerA, { group_id: groupB.id, group_access: 30 }).expect(201);
    expect((await unshare(developerA, groupB.id).expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect(await svc.deps.db('project_group_links')).toHaveLength(1);
  });
});
