import type { Actor } from '@anvil/auth';
import { addMember, asOnProject, Identity, makeGroup, makeProject, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
let owner: Actor;
let member: Actor;
let outsider: Actor;
let group: { id: number; full_path: string };
let sub: { id: number; full_path: string };
let priv: { id: number; path_with_namespace: string };
let internalP: { id: number };
let pub: { id: number };
let tag: string;

beforeAll(async () => {
  svc = await startIdentity();
  tag = unique('lst');
  owner = await makeUser(svc);
  member = await makeUser(svc);
  outsider = await makeUser(svc);
  group = await makeGroup(svc, owner, { visibility: 'public' });
  sub = await makeGroup(svc, owner, { parent_id: group.id, visibility: 'public' });
  priv = await makeProject(svc, owner, { namespace_id: sub.id, path: `${tag}-private`, description: 'hidden' });
  internalP = await makeProject(svc, owner, { path: `${tag}-internal`, visibility: 'internal' });
  pub = await makeProject(svc, owner, { path: `${tag}-public`, visibility: 'public', namespace_id: group.id });
  await addMember(svc, 'groups', group.id, member, 30);
});
afterAll(async () => svc?.stop());

const ids = (body: { id: number }[]) => body.map((p) => p.id);

describe('GET /projects', () => {
  describe('anonymous', () => {
    it('lists public projects only, as BasicProjectDetails', async () => {
      const res = await svc.as({ user: null }).get(`/api/v4/projects?search=${tag}`).expect(200);
      expect(ids(res.body)).toEqual([pub.id]);
      expect(res.body[0].permissions).toBeUndefined();
      expect(res.body[0]._links).toBeUndefined();
    });
  });

  describe('as a non-member', () => {
    it('lists public and internal projects, not private ones', async () => {
      const res = await svc.as({ user: outsider }).get(`/api/v4/projects?search=${tag}&order_by=id&sort=asc`).expect(200);
      expect(ids(res.body)).toEqual([internalP.id, pub.id]);
    });
  });

  describe('as a group member', () => {
    it('includes private projects of subgroups (inherited), with permissions', async () => {
      const res = await svc.as({ user: member }).get(`/api/v4/projects?search=${tag}&order_by=id&sort=asc`).expect(200);
      expect(ids(res.body)).toEqual([priv.id, internalP.id, pub.id]);
      expect(res.body[0].permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
      expect(res.headers['x-total']).toBe('3');
    });

    it('filters membership=true, visibility, min_access_level and simple', async () => {
      const mine = await svc.as({ user: member }).get(`/api/v4/projects?search=${tag}&membership=true&order_by=id&sort=asc`).expect(200);
      expect(ids(mine.body)).toEqual([priv.id, pub.id]);
      const vis = await svc.as({ user: member }).get(`/api/v4/projects?search=${tag}&visibility=internal`).expect(200);
      expect(ids(vis.body)).toEqual([internalP.id]);
      const level = await svc.as({ user: member }).get(`/api/v4/projects?search=${tag}&min_access_level=40`).expect(200);
      expect(level.body).toEqual([]);
      const simple = await svc.as({ user: member }).get(`/api/v4/projects?search=${tag}&simple=true&per_page=1`).expect(200);
      expect(Object.keys(simple.body[0])).toEqual([
        'id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics',
        'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'namespace',
      ]);
      expect(simple.headers['x-next-page']).toBe('2');
    });
  });

  describe('as the owner', () => {
    it('filters owned=true and orders by name', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/projects?search=${tag}&owned=true&order_by=name&sort=asc`).expect(200);
      expect(res.body.map((p: { path: string }) => p.path)).toEqual([`${tag}-internal`, `${tag}-private`, `${tag}-public`]);
    });
  });

  describe('as an administrator', () => {
    it('lists everything', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).get(`/api/v4/projects?search=${tag}`).expect(200);
      expect(ids(res.body).sort()).toEqual([priv.id, internalP.id, pub.id].sort());
    });
  });

  it('returns 400 for a bad order_by', async () => {
    const res = await svc.as({ user: member }).get('/api/v4/projects?order_by=nonsense').expect(400);
    expect(res.body).toEqual({ error: 'order_by does not have a valid value' });
  });
});

describe('GET /projects/:id', () => {
  describe('a private project in a subgroup', () => {
    it('is 404 to anonymous callers and non-members', async () => {
      const anon = await (await asOnProject(svc, null, priv.id)).get(`/api/v4/projects/${priv.id}`).expect(404);
      expect(anon.body).toEqual({ message: '404 Project Not Found' });
      expect((await (await asOnProject(svc, outsider, priv.id)).get(`/api/v4/projects/${priv.id}`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
    });

    it('is 200 to a member of an ancestor group, with permissions', async () => {
      const res = await (await asOnProject(svc, member, priv.id)).get(`/api/v4/projects/${priv.id}`).expect(200);
      expect(res.body).toMatchObject({ id: priv.id, path_with_namespace: priv.path_with_namespace, description: 'hidden', permissions: { project_access: null, group_access: { access_level: 30 } } });
    });

    it('is found by its URL-encoded full path, case-insensitively', async () => {
      const encoded = encodeURIComponent(priv.path_with_namespace.toUpperCase());
      const res = await svc.as({ user: member }).get(`/api/v4/projects/${encoded}`).expect(200);
      expect(res.body.id).toBe(priv.id);
      expect((await svc.as({ user: outsider }).get(`/api/v4/projects/${encoded}`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
    });
  });

  describe('a public project', () => {
    it('is BasicProjectDetails to anonymous callers', async () => {
      const res = await (await asOnProject(svc, null, pub.id)).get(`/api/v4/projects/${pub.id}`).expect(200);
      expect(res.body.id).toBe(pub.id);
      expect(res.body.visibility).toBeUndefined();
    });
  });

  it('is 404 for an unknown id', async () => {
    const res = await svc.as({ user: owner }).get('/api/v4/projects/999999').expect(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
  });
});
