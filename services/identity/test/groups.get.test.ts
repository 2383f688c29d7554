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

describe('GET /groups list parameters', () => {
  let k: string;
  let alpha: { id: number }, beta: { id: number }, gamma: { id: number }, exact: { id: number };
  beforeAll(async () => {
    k = unique('kl');
    alpha = await makeGroup(svc, owner, { path: `${k}-alpha`, name: `${k} Alpha`, visibility: 'public' });
    beta = await makeGroup(svc, owner, { path: `${k}-beta`, name: `${k} Beta`, visibility: 'public' });
    gamma = await makeGroup(svc, owner, { path: `${k}-gamma`, name: `${k} Gamma`, visibility: 'public' });
    exact = await makeGroup(svc, owner, { path: k, name: `zz ${k}`, visibility: 'public' });
  });

  describe('as an administrator', () => {
    it('adds statistics with statistics=true', async () => {
      const res = await svc.as({ user: await rootActor(svc) }).get(`/api/v4/groups?search=${k}-alpha&statistics=true`).expect(200);
      expect(res.body[0].statistics).toEqual({ storage_size: 0, repository_size: 0, wiki_size: 0, lfs_objects_size: 0, job_artifacts_size: 0, pipeline_artifacts_size: 0, packages_size: 0, snippets_size: 0, uploads_size: 0 });
    });
  });

  describe('as a signed-in user', () => {
    it('ignores statistics for non-administrators', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/groups?search=${k}-alpha&statistics=true`).expect(200);
      expect('statistics' in res.body[0]).toBe(false);
    });

    it('skips skip_groups[] and orders by path, id or name in either direction', async () => {
      const skipped = await svc.as({ user: owner }).get(`/api/v4/groups?search=${k}-&skip_groups[]=${beta.id}`).expect(200);
      expect(ids(skipped.body)).toEqual([alpha.id, gamma.id]);
      const desc = await svc.as({ user: owner }).get(`/api/v4/groups?search=${k}-&order_by=path&sort=desc`).expect(200);
      expect(ids(desc.body)).toEqual([gamma.id, beta.id, alpha.id]);
      const byId = await svc.as({ user: owner }).get(`/api/v4/groups?search=${k}&order_by=id&sort=desc`).expect(200);
      expect(ids(byId.body)).toEqual([exact.id, gamma.id, beta.id, alpha.id]);
    });

    it('puts the most similar first with order_by=similarity and a search', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/groups?search=${k}&order_by=similarity`).expect(200);
      expect(ids(res.body)[0]).toBe(exact.id);
      const byName = await svc.as({ user: owner }).get(`/api/v4/groups?search=${k}&order_by=name`).expect(200);
      expect(ids(byName.body)).toEqual([alpha.id, beta.id, gamma.id, exact.id]);
    });

    it('rejects an unknown min_access_level or order_by with 400', async () => {
      expect((await svc.as({ user: owner }).get('/api/v4/groups?min_access_level=7').expect(400)).body).toEqual({ error: 'min_access_level does not have a valid value' });
      expect((await svc.as({ user: owner }).get('/api/v4/groups?order_by=created_at').expect(400)).body).toEqual({ error: 'order_by does not have a valid value' });
    });
  });

  describe('as an anonymous caller', () => {
    it('pages by keyset: a next link with a cursor, no totals, until the last page', async () => {
      const first = await svc.as({ user: null }).get(`/api/v4/groups?search=${k}-&pagination=keyset&per_page=2`).expect(200);
      expect(ids(first.body)).toEqual([alpha.id, beta.id]);
      expect(first.headers['x-total']).toBeUndefined();
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1] as string;
      expect(next).toContain('cursor=');
      const second = await svc.as({ user: null }).get(new URL(next).pathname + new URL(next).search).expect(200);
      expect(ids(second.body)).toEqual([gamma.id]);
      expect(second.headers.link).toBeUndefined();
    });

    it('answers 405 for offset pages beyond the offset limit (signed-in callers are not limited)', async () => {
      const res = await svc.as({ user: null }).get('/api/v4/groups?page=501&per_page=100').expect(405);
      expect(res.body).toEqual({ message: 'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Group. Remaining records can be retrieved using keyset pagination.' });
      expect((await svc.as({ user: owner }).get('/api/v4/groups?page=501&per_page=100').expect(200)).body).toEqual([]);
    });

    it('answers 405 for keyset pages in another order', async () => {
      const res = await svc.as({ user: null }).get('/api/v4/groups?pagination=keyset&order_by=id').expect(405);
      expect(res.body).toEqual({ message: 'Keyset pagination is not yet available for this type of request' });
    });
  });
});

describe('GET /groups/:id/descendant_groups and subgroups with list parameters', () => {
  it('searches, skips and orders the groups below', async () => {
    const sub2 = await makeGroup(svc, owner, { path: `${tag}-d-sub2`, name: `${tag}-d-sub2`, parent_id: subG.id });
    const all = await svc.as({ user: owner }).get(`/api/v4/groups/${privG.id}/descendant_groups?order_by=id&sort=desc`).expect(200);
    expect(ids(all.body)).toEqual([sub2.id, subG.id]);
    const skipped = await svc.as({ user: owner }).get(`/api/v4/groups/${privG.id}/descendant_groups?skip_groups=${subG.id}&search=sub`).expect(200);
    expect(ids(skipped.body)).toEqual([sub2.id]);
    const anon = await svc.as({ user: null }).get(`/api/v4/groups/${pubG.id}/subgroups`).expect(200);
    expect(anon.body).toEqual([]);
  });
});
