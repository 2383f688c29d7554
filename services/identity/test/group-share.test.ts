import type { Actor } from '@anvil/auth';
import { addMember, events, groupScopeFor, Identity, internal, makeGroup, makeProject, makeUser, projectScopeFor, rootActor, startIdentity, unique } from './helpers';

type G = { id: number; full_path: string; path: string };
let svc: Identity;
let ownerA: Actor, maintainerA: Actor, ownerB: Actor, developerB: Actor, guestB: Actor, parentMemberB: Actor, outsider: Actor;
let groupA: G, subA: G, parentB: G, groupB: G, groupC: G;
let projectA: { id: number }, subProjectA: { id: number };
let tag: string;

beforeAll(async () => {
  svc = await startIdentity();
  tag = unique('sh');
  [ownerA, maintainerA, ownerB, developerB, guestB, parentMemberB, outsider] = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => makeUser(svc)));
  groupA = await makeGroup(svc, ownerA, { path: `${tag}-a`, name: `${tag}-a` });
  subA = await makeGroup(svc, ownerA, { path: `${tag}-a-sub`, name: `${tag}-a-sub`, parent_id: groupA.id });
  projectA = await makeProject(svc, ownerA, { namespace_id: groupA.id, path: 'secret' });
  subProjectA = await makeProject(svc, ownerA, { namespace_id: subA.id, path: 'deeper' });
  parentB = await makeGroup(svc, ownerB, { path: `${tag}-pb`, name: `${tag}-pb` });
  groupB = await makeGroup(svc, ownerB, { path: `${tag}-b`, name: `${tag}-b`, parent_id: parentB.id });
  groupC = await makeGroup(svc, ownerB, { path: `${tag}-c`, name: `${tag}-c`, visibility: 'public' });
  await addMember(svc, 'groups', groupA.id, maintainerA, 40);
  await addMember(svc, 'groups', groupB.id, developerB, 30);
  await addMember(svc, 'groups', groupB.id, guestB, 10);
  await addMember(svc, 'groups', parentB.id, parentMemberB, 40);
  await addMember(svc, 'groups', groupB.id, ownerA, 20);
});
afterAll(async () => svc?.stop());

const share = (user: Actor | null, id: number, body: Record<string, unknown>) => svc.as({ user }).post(`/api/v4/groups/${id}/share`).send(body);
const unshare = (user: Actor | null, id: number, withId: number | string) => svc.as({ user }).delete(`/api/v4/groups/${id}/share/${withId}`);
const links = () => svc.deps.db('group_group_links').orderBy('id');
const ids = (body: { id: number }[]) => body.map((x) => x.id);

describe('POST /groups/:id/share', () => {
  describe('as an anonymous caller', () => {
    it('returns 401', async () => {
      const res = await share(null, groupA.id, { group_id: groupB.id, group_access: 20 }).expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('with invalid params', () => {
    it('returns 400 for a missing group_id or group_access and an unknown access level', async () => {
      expect((await share(ownerA, groupA.id, { group_access: 20 }).expect(400)).body).toEqual({ error: 'group_id is missing' });
      expect((await share(ownerA, groupA.id, { group_id: groupB.id }).expect(400)).body).toEqual({ error: 'group_access is missing' });
      expect((await share(ownerA, groupA.id, { group_id: groupB.id, group_access: 1234 }).expect(400)).body).toEqual({ error: 'group_access does not have a valid value' });
    });

    it('returns 404 Group Not Found for a group that does not exist or that the caller may not read', async () => {
      expect((await share(ownerA, groupA.id, { group_id: 999999, group_access: 20 }).expect(404)).body).toEqual({ message: '404 Group Not Found' });
      expect((await share(ownerA, groupA.id, { group_id: parentB.id, group_access: 20 }).expect(404)).body).toEqual({ message: '404 Group Not Found' });
    });
  });

  describe('as a Maintainer of the group', () => {
    it('returns 404 Not Found and shares nothing', async () => {
      const res = await share(maintainerA, groupA.id, { group_id: groupC.id, group_access: 30 }).expect(404);
      expect(res.body).toEqual({ message: 'Not Found' });
      expect(await links()).toEqual([]);
    });
  });

  describe('as the Owner', () => {
    it('returns 201 with the group detail listing the share, stores it and publishes identity.group_link.created', async () => {
      const res = await share(ownerA, groupA.id, { group_id: groupB.id, group_access: 20, expires_at: '2999-01-31' }).expect(201);
      expect(res.body).toMatchObject({ id: groupA.id, full_path: groupA.full_path });
      expect(res.body.shared_with_groups).toEqual([{ group_id: groupB.id, group_name: groupB.path, group_full_path: groupB.full_path, group_access_level: 20, expires_at: '2999-01-31' }]);
      expect(res.body.projects).toBeUndefined();
      expect(await links()).toMatchObject([{ shared_group_id: groupA.id, shared_with_group_id: groupB.id, group_access: 20 }]);
      const published = await events(svc, 'identity.group_link.created');
      expect(published.map((e) => e.data)).toEqual([{ shared_group_id: groupA.id, shared_group_traversal_ids: [groupA.id], shared_with_group_id: groupB.id, group_access: 20, expires_at: '2999-01-31' }]);
    });

    it('returns 409 when the group is already shared with that group', async () => {
      const res = await share(ownerA, groupA.id, { group_id: groupB.id, group_access: 30 }).expect(409);
      expect(res.body).toEqual({ message: 'Shared group The group has already been shared with this group' });
      expect(await links()).toHaveLength(1);
    });

    it('lists the share in GET /groups/:id only to callers who may read the invited group', async () => {
      const seen = await svc.as({ user: maintainerA }).get(`/api/v4/groups/${groupA.id}`).expect(200);
      expect(seen.body.shared_with_groups).toEqual([]);
      const member = await svc.as({ user: developerB }).get(`/api/v4/groups/${groupA.id}`).expect(200);
      expect(member.body.shared_with_groups.map((g: { group_id: number }) => g.group_id)).toEqual([groupB.id]);
    });
  });

  describe('as an administrator', () => {
    it('shares any group', async () => {
      const res = await share(await rootActor(svc), subA.id, { group_id: groupC.id, group_access: 10 }).expect(201);
      expect(res.body.shared_with_groups).toEqual([{ group_id: groupC.id, group_name: groupC.path, group_full_path: groupC.full_path, group_access_level: 10, expires_at: null }]);
      await unshare(await rootActor(svc), subA.id, groupC.id).expect(204);
    });
  });
});

describe('access through a share', () => {
  it('gives members of the invited group the lower of their level and group_access on the group, its subgroups and projects', async () => {
    expect((await groupScopeFor(svc, groupA.id, developerB)).access_level).toBe(20);
    expect((await groupScopeFor(svc, subA.full_path, developerB)).access_level).toBe(20);
    expect((await projectScopeFor(svc, projectA.id, developerB)).access_level).toBe(20);
    expect((await projectScopeFor(svc, subProjectA.id, guestB)).access_level).toBe(10);
  });

  it('reaches members of the invited group’s ancestors, not outsiders', async () => {
    expect((await groupScopeFor(svc, groupA.id, parentMemberB)).access_level).toBe(20);
    expect((await groupScopeFor(svc, groupA.id, outsider)).access_level).toBe(0);
  });

  it('lists the shared group and its projects to invited members', async () => {
    const groups = await svc.as({ user: developerB }).get(`/api/v4/groups?search=${tag}-a`).expect(200);
    expect(ids(groups.body)).toEqual([groupA.id, subA.id]);
    const projects = await svc.as({ user: developerB }).get(`/api/v4/projects?membership=true&order_by=id&sort=asc`).expect(200);
    expect(ids(projects.body)).toEqual([projectA.id, subProjectA.id]);
    const min = await svc.as({ user: developerB }).get(`/api/v4/groups?search=${tag}-a&min_access_level=30`).expect(200);
    expect(min.body).toEqual([]);
    const readable = await internal(svc).get(`/v1/projects/readable?user_id=${developerB.id}&min_access_level=20`).expect(200);
    expect(readable.body.ids).toEqual([projectA.id, subProjectA.id]);
  });

  it('lists invited members in the group’s and its projects’ members/all at the lower level, not in direct members', async () => {
    const all = await svc.as({ user: ownerA }).get(`/api/v4/groups/${groupA.id}/members/all?per_page=100`).expect(200);
    const levels = Object.fromEntries(all.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]));
    expect(levels).toMatchObject({ [developerB.id]: 20, [guestB.id]: 10, [parentMemberB.id]: 20, [ownerA.id]: 50 });
    const one = await svc.as({ user: ownerA }).get(`/api/v4/projects/${subProjectA.id}/members/all/${developerB.id}`).expect(200);
    expect(one.body).toMatchObject({ id: developerB.id, access_level: 20, expires_at: '2999-01-31' });
    const direct = await svc.as({ user: ownerA }).get(`/api/v4/groups/${groupA.id}/members`).expect(200);
    expect(direct.body.map((m: { id: number }) => m.id)).not.toContain(developerB.id);
  });

  it('ends on the share’s expires_at date', async () => {
    await svc.deps.db('group_group_links').where({ shared_group_id: groupA.id }).update({ expires_at: '2020-01-01' });
    expect((await groupScopeFor(svc, groupA.id, developerB)).access_level).toBe(0);
    expect((await projectScopeFor(svc, projectA.id, developerB)).access_level).toBe(0);
    const projects = await svc.as({ user: developerB }).get('/api/v4/projects?membership=true').expect(200);
    expect(projects.body).toEqual([]);
    await svc.deps.db('group_group_links').where({ shared_group_id: groupA.id }).update({ expires_at: null });
    expect((await groupScopeFor(svc, groupA.id, developerB)).access_level).toBe(20);
  });
});

describe('DELETE /groups/:id/share/:group_id', () => {
  it('returns 400 when group_id is not an integer', async () => {
    expect((await unshare(ownerA, groupA.id, 'foo').expect(400)).body).toEqual({ error: 'group_id is invalid' });
  });

  it('returns 404 Group Link Not Found when the group is not shared with it', async () => {
    expect((await unshare(ownerA, groupA.id, groupC.id).expect(404)).body).toEqual({ message: '404 Group Link Not Found' });
  });

  it('answers 204 to a Maintainer but keeps the share (as GitLab)', async () => {
    await unshare(maintainerA, groupA.id, groupB.id).expect(204);
    expect(await links()).toHaveLength(1);
  });

  it('removes the share for the Owner, publishes identity.group_link.deleted, and the access goes', async () => {
    await unshare(ownerA, groupA.id, groupB.id).expect(204);
    expect(await links()).toEqual([]);
    const published = await events(svc, 'identity.group_link.deleted', { shared_group_id: groupA.id });
    expect(published.map((e) => e.data)).toEqual([{ shared_group_id: groupA.id, shared_group_traversal_ids: [groupA.id], shared_with_group_id: groupB.id, group_access: 20, expires_at: null }]);
    expect((await groupScopeFor(svc, groupA.id, developerB)).access_level).toBe(0);
    await svc.as({ user: developerB }).get(`/api/v4/groups/${groupA.id}`).expect(404);
  });
});

describe('DELETE /groups/:id of a shared or invited group', () => {
  it('removes its shares and publishes identity.group_link.deleted for each', async () => {
    const root = await rootActor(svc);
    const shared = await makeGroup(svc, root, { path: unique('gone') });
    await share(root, shared.id, { group_id: groupC.id, group_access: 30 }).expect(201);
    await share(root, groupA.id, { group_id: shared.id, group_access: 10 }).expect(201);
    await svc.as({ user: root }).delete(`/api/v4/groups/${shared.id}`).expect(202);
    expect(await svc.deps.db('group_group_links').where({ shared_group_id: shared.id }).orWhere({ shared_with_group_id: shared.id })).toEqual([]);
    const gone = [
      ...(await events(svc, 'identity.group_link.deleted', { shared_group_id: shared.id })),
      ...(await events(svc, 'identity.group_link.deleted', { shared_with_group_id: shared.id })),
    ];
    expect(gone.map((e) => [e.data.shared_group_id, e.data.shared_with_group_id])).toEqual([[shared.id, groupC.id], [groupA.id, shared.id]]);
  });
});
