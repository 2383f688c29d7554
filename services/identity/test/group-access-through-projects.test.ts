import { type Actor, canRead, groupAccess, RequestContext } from '@anvil/auth';
import { addMember, asOnGroup, groupScopeFor, Identity, makeGroup, makeProject, makeUser, startIdentity, unique } from './helpers';

type G = { id: number; full_path: string };
let svc: Identity;
let owner: Actor;
let projectMember: Actor;
let subgroupMember: Actor;
let emptySubgroupMember: Actor;
let outsider: Actor;
let group: G, sub: G, empty: G, sibling: G;
let project: { id: number };

beforeAll(async () => {
  svc = await startIdentity();
  const tag = unique('rp');
  [owner, projectMember, subgroupMember, emptySubgroupMember, outsider] = await Promise.all([1, 2, 3, 4, 5].map(() => makeUser(svc)));
  group = await makeGroup(svc, owner, { path: `${tag}-group`, name: `${tag}-group` });
  sub = await makeGroup(svc, owner, { path: `${tag}-sub`, name: `${tag}-sub`, parent_id: group.id });
  empty = await makeGroup(svc, owner, { path: `${tag}-empty`, name: `${tag}-empty`, parent_id: group.id });
  sibling = await makeGroup(svc, owner, { path: `${tag}-sibling`, name: `${tag}-sibling` });
  project = await makeProject(svc, owner, { namespace_id: sub.id, path: 'deep' });
  await makeProject(svc, owner, { namespace_id: sibling.id, path: 'elsewhere' });
  await addMember(svc, 'projects', project.id, projectMember, 20);
  await addMember(svc, 'groups', sub.id, subgroupMember, 10);
  await addMember(svc, 'groups', empty.id, emptySubgroupMember, 30);
});
afterAll(async () => svc?.stop());

const ids = (body: { id: number }[]) => body.map((g) => g.id);

describe('GET /internal/v1/groups/resolve for a member of a project inside a private group', () => {
  it('answers readable: true at access level 0, for the group and the subgroup holding the project', async () => {
    const scope = await groupScopeFor(svc, group.id, projectMember);
    expect(scope).toEqual({ id: group.id, full_path: group.full_path, parent_id: null, visibility: 'private', access_level: 0, readable: true });
    expect(await groupScopeFor(svc, sub.full_path, projectMember)).toMatchObject({ id: sub.id, access_level: 0, readable: true });
  });

  it('gives the gateway a scope canRead accepts but no group level', async () => {
    const scope = await groupScopeFor(svc, group.id, projectMember);
    expect(canRead(scope, projectMember)).toBe(true);
    expect(groupAccess({ user: projectMember, group: scope } as unknown as RequestContext)).toBe(0);
  });

  it('leaves the key out for empty subgroups, other groups, outsiders and anonymous callers', async () => {
    for (const [ref, user] of [[empty.id, projectMember], [sibling.id, projectMember], [group.id, outsider], [group.id, null]] as const) {
      const scope = await groupScopeFor(svc, ref, user);
      expect(scope.access_level).toBe(0);
      expect('readable' in scope).toBe(false);
      expect(canRead(scope, user)).toBe(false);
    }
  });

  it('leaves the key out for real members (their level already reads)', async () => {
    expect(await groupScopeFor(svc, group.id, owner)).toEqual({ id: group.id, full_path: group.full_path, parent_id: null, visibility: 'private', access_level: 50 });
  });
});

describe('GET /internal/v1/groups/resolve for members of subgroups', () => {
  it('reads the parent through a member subgroup that holds a project, not through an empty one', async () => {
    expect(await groupScopeFor(svc, group.id, subgroupMember)).toMatchObject({ access_level: 0, readable: true });
    expect('readable' in (await groupScopeFor(svc, group.id, emptySubgroupMember))).toBe(false);
  });
});

describe('GET /groups/:id for a member of a project inside it', () => {
  it('returns the group with only the projects the caller can see embedded', async () => {
    const res = await (await asOnGroup(svc, projectMember, group.id)).get(`/api/v4/groups/${group.id}`).expect(200);
    expect(res.body).toMatchObject({ id: group.id, projects: [] });
    const inSub = await (await asOnGroup(svc, projectMember, sub.id)).get(`/api/v4/groups/${sub.id}`).expect(200);
    expect(inSub.body.projects.map((p: { id: number }) => p.id)).toEqual([project.id]);
  });

  it('lists the project through /projects?include_subgroups=true', async () => {
    const res = await svc.as({ user: projectMember }).get(`/api/v4/groups/${group.id}/projects?include_subgroups=true`).expect(200);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
  });

  it('grants reading only: updating the group is 403', async () => {
    const res = await svc.as({ user: projectMember }).put(`/api/v4/groups/${group.id}`).send({ description: 'x' }).expect(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
    const after = await (await asOnGroup(svc, owner, group.id)).get(`/api/v4/groups/${group.id}`).expect(200);
    expect(after.body.description).toBe('');
  });

  it('is 404 to an outsider and to a member of an empty subgroup', async () => {
    const out = await svc.as({ user: outsider }).get(`/api/v4/groups/${group.id}`).expect(404);
    expect(out.body).toEqual({ message: '404 Group Not Found' });
    const emptyMember = await svc.as({ user: emptySubgroupMember }).get(`/api/v4/groups/${group.id}`).expect(404);
    expect(emptyMember.body).toEqual({ message: '404 Group Not Found' });
  });

  it('stops once the project membership expires', async () => {
    const late = await makeUser(svc);
    await addMember(svc, 'projects', project.id, late, 30);
    expect((await groupScopeFor(svc, group.id, late)).readable).toBe(true);
    await svc.deps.db('members').where({ user_id: late.id, source_type: 'Project' }).update({ expires_at: '2000-01-01' });
    expect('readable' in (await groupScopeFor(svc, group.id, late))).toBe(false);
    expect((await svc.as({ user: late }).get(`/api/v4/groups/${group.id}`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups and subgroup lists for a member of a project inside a group', () => {
  it('lists the groups read through the project, not the empty subgroup or other groups', async () => {
    const res = await svc.as({ user: projectMember }).get(`/api/v4/groups?search=${group.full_path.split('-')[0]}`).expect(200);
    expect(ids(res.body)).toEqual([group.id, sub.id]);
    const all = await svc.as({ user: projectMember }).get(`/api/v4/groups?all_available=true&search=${group.full_path.split('-')[0]}`).expect(200);
    expect(ids(all.body)).toEqual([group.id, sub.id]);
  });

  it('narrows subgroups and descendant_groups the same way', async () => {
    const subs = await svc.as({ user: projectMember }).get(`/api/v4/groups/${group.id}/subgroups`).expect(200);
    expect(ids(subs.body)).toEqual([sub.id]);
    const desc = await svc.as({ user: subgroupMember }).get(`/api/v4/groups/${group.id}/descendant_groups`).expect(200);
    expect(ids(desc.body)).toEqual([sub.id]);
  });
});
