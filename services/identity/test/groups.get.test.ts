import type { Actor } from '@anvil/auth';
import { addMember, asOnGroup, Identity, makeGroup, makeProject, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
let owner: Actor;
let member: Actor;
let outsider: Actor;
let tag: string;
let privG: { id: number; full_path: string };
let subG: { id: number; full_path: string };
let pubG: { id: number; full_path: string };
let project: { id: number };

beforeAll(async () => {
  svc = await startIdentity();
  tag = unique('gl');
  owner = await makeUser(svc);
  member = await makeUser(svc);
  outsider = await makeUser(svc);
  privG = await makeGroup(svc, owner, { path: `${tag}-a-private`, name: `${tag}-a-private` });
  subG = await makeGroup(svc, owner, { path: `${tag}-c-sub`, name: `${tag}-c-sub`, parent_id: privG.id });
  pubG = await makeGroup(svc, owner, { path: `${tag}-b-public`, name: `${tag}-b-public`, visibility: 'public' });
  project = await makeProject(svc, owner, { namespace_id: privG.id, path: 'inside' });
  await makeProject(svc, owner, { namespace_id: subG.id, path: 'deeper' });
  await addMember(svc, 'groups', privG.id, member, 20);
});
afterAll(async () => svc?.stop());

const ids = (body: { id: number }[]) => body.map((g) => g.id);

describe('GET /groups', () => {
  it('lists the member’s groups and their descendants by name', async () => {
    const res = await svc.as({ user: member }).get(`/api/v4/groups?search=${tag}`).expect(200);
    expect(ids(res.body)).toEqual([privG.id, subG.id]);
    expect(res.headers['x-total']).toBe('2');
  });

  it('adds visible groups with all_available=True and narrows with top_level_only', async () => {
    const all = await svc.as({ user: outsider }).get(`/api/v4/groups?search=${tag}&all_available=True`).expect(200);
    expect(ids(all.body)).toEqual([pubG.id]);
    const top = await svc.as({ user: member }).get(`/api/v4/groups?search=${tag}&top_level_only=true`).expect(200);
    expect(ids(top.body)).toEqual([privG.id]);
  });

  it('shows public groups to anonymous callers and everything to administrators', async () => {
    const anon = await svc.as({ user: null }).get(`/api/v4/groups?search=${tag}`).expect(200);
    expect(ids(anon.body)).toEqual([pubG.id]);
    const admin = await svc.as({ user: await rootActor(svc) }).get(`/api/v4/groups?search=${tag}`).expect(200);
    expect(ids(admin.body)).toEqual([privG.id, pubG.id, subG.id]);
    const adminOwn = await svc.as({ user: await rootActor(svc) }).get(`/api/v4/groups?search=${tag}&all_available=false`).expect(200);
    expect(adminOwn.body).toEqual([]);
  });

  it('filters owned and min_access_level', async () => {
    const owned = await svc.as({ user: member }).get(`/api/v4/groups?search=${tag}&owned=true`).expect(200);
    expect(owned.body).toEqual([]);
    const min = await svc.as({ user: owner }).get(`/api/v4/groups?search=${tag}&min_access_level=50`).expect(200);
    expect(ids(min.body)).toEqual([privG.id, pubG.id, subG.id]);
  });
});

describe('GET /groups/:id', () => {
  it('returns GroupDetail with the group’s own projects to a member', async () => {
    const res = await (await asOnGroup(svc, member, privG.id)).get(`/api/v4/groups/${privG.id}`).expect(200);
    expect(res.body).toMatchObject({ id: privG.id, full_path: privG.full_path, shared_projects: [], shared_with_groups: [] });
    expect(res.body.projects.map((p: { id: number }) => p.id)).toEqual([project.id]);
  });

  it('omits projects with with_projects=false', async () => {
    const res = await svc.as({ user: member }).get(`/api/v4/groups/${privG.id}?with_projects=false`).expect(200);
    expect(res.body.projects).toBeUndefined();
  });

  it('resolves a URL-encoded full path case-insensitively', async () => {
    const res = await svc.as({ user: member }).get(`/api/v4/groups/${encodeURIComponent(subG.full_path.toUpperCase())}`).expect(200);
    expect(res.body).toMatchObject({ id: subG.id, parent_id: privG.id });
    expect('prevent_sharing_groups_outside_hierarchy' in res.body).toBe(false);
  });

  it('is 404 for a private group to anonymous callers and non-members', async () => {
    const res = await svc.as({ user: null }).get(`/api/v4/groups/${privG.id}`).expect(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
    expect((await svc.as({ user: outsider }).get(`/api/v4/groups/${subG.id}`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id/subgroups', () => {
  it('lists direct subgroups', async () => {
    const res = await svc.as({ user: member }).get(`/api/v4/groups/${privG.id}/subgroups`).expect(200);
    expect(ids(res.body)).toEqual([subG.id]);
  });
});

describe('GET /groups/:id/projects', () => {
  it('lists the group’s projects, with include_subgroups the descendants’ too', async () => {
    const direct = await svc.as({ user: member }).get(`/api/v4/groups/${privG.id}/projects`).expect(200);
    expect(direct.body.map((p: { path: string }) => p.path)).toEqual(['inside']);
    const all = await svc.as({ user: member }).get(`/api/v4/groups/${privG.id}/projects?include_subgroups=true&order_by=path&sort=asc`).expect(200);
    expect(all.body.map((p: { path: string }) => p.path)).toEqual(['deeper', 'inside']);
  });
});
