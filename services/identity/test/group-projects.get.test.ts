import type { Actor } from '@anvil/auth';
import { addMember, Identity, makeGroup, makeProject, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
let owner: Actor, guest: Actor, reporter: Actor;
let group: { id: number }, sub: { id: number };
let open: { id: number }, noIssues: { id: number }, privateFeatures: { id: number }, deep: { id: number };

beforeAll(async () => {
  svc = await startIdentity();
  const tag = unique('gp');
  [owner, guest, reporter] = await Promise.all([1, 2, 3].map(() => makeUser(svc)));
  group = await makeGroup(svc, owner, { path: `${tag}-g`, name: `${tag}-g`, visibility: 'public' });
  sub = await makeGroup(svc, owner, { path: `${tag}-s`, name: `${tag}-s`, parent_id: group.id, visibility: 'public' });
  open = await makeProject(svc, owner, { namespace_id: group.id, path: 'open', visibility: 'public' });
  noIssues = await makeProject(svc, owner, { namespace_id: group.id, path: 'no-issues', visibility: 'public', issues_access_level: 'disabled', merge_requests_access_level: 'disabled' });
  privateFeatures = await makeProject(svc, owner, { namespace_id: group.id, path: 'members-only', visibility: 'public', issues_access_level: 'private', merge_requests_access_level: 'private' });
  deep = await makeProject(svc, owner, { namespace_id: sub.id, path: 'deep', visibility: 'public' });
  await addMember(svc, 'projects', privateFeatures.id, guest, 10);
  await addMember(svc, 'projects', privateFeatures.id, reporter, 20);
});
afterAll(async () => svc?.stop());

const ids = (body: { id: number }[]) => body.map((p) => p.id).sort((a, b) => a - b);
const list = (user: Actor | null, query: string) => svc.as({ user }).get(`/api/v4/groups/${group.id}/projects${query ? `?${query}` : ''}`).expect(200);

describe('GET /groups/:id/projects', () => {
  describe('as an anonymous caller', () => {
    it('lists the group’s own projects; include_subgroups adds the subgroups’ ones', async () => {
      expect(ids((await list(null, '')).body)).toEqual([open.id, noIssues.id, privateFeatures.id]);
      expect(ids((await list(null, 'include_subgroups=true')).body)).toEqual([open.id, noIssues.id, privateFeatures.id, deep.id]);
    });

    it('keeps projects whose features are enabled with with_issues_enabled and with_merge_requests_enabled', async () => {
      expect(ids((await list(null, 'with_issues_enabled=true')).body)).toEqual([open.id]);
      expect(ids((await list(null, 'with_merge_requests_enabled=true')).body)).toEqual([open.id]);
    });

    it('orders by similarity to the search, or by name without one', async () => {
      const similar = await list(null, 'order_by=similarity&search=o');
      expect(similar.body.map((p: { id: number }) => p.id)).toEqual([open.id, privateFeatures.id, noIssues.id]);
      const byName = await list(null, 'order_by=similarity');
      expect(byName.body.map((p: { path: string }) => p.path)).toEqual(['members-only', 'no-issues', 'open']);
    });

    it('ignores starred', async () => {
      expect(ids((await list(null, 'starred=true')).body)).toEqual([open.id, noIssues.id, privateFeatures.id]);
    });
  });

  describe('as project members', () => {
    it('adds a private feature for members who reach its level (issues: Guest, merge requests: Reporter)', async () => {
      expect(ids((await list(guest, 'with_issues_enabled=true')).body)).toEqual([open.id, privateFeatures.id]);
      expect(ids((await list(guest, 'with_merge_requests_enabled=true')).body)).toEqual([open.id]);
      expect(ids((await list(reporter, 'with_merge_requests_enabled=true')).body)).toEqual([open.id, privateFeatures.id]);
    });

    it('returns no starred projects (nothing is starred)', async () => {
      const res = await list(guest, 'starred=true');
      expect(res.body).toEqual([]);
      expect(res.headers['x-total']).toBe('0');
    });

    it('accepts with_shared (no project is shared into a group here)', async () => {
      expect(ids((await list(guest, 'with_shared=false')).body)).toEqual([open.id, noIssues.id, privateFeatures.id]);
    });
  });

  describe('as an administrator', () => {
    it('keeps any project whose feature is not disabled', async () => {
      expect(ids((await list(await rootActor(svc), 'with_issues_enabled=true')).body)).toEqual([open.id, privateFeatures.id]);
    });
  });

  it('returns 400 for a non-boolean filter', async () => {
    const res = await svc.as({ user: null }).get(`/api/v4/groups/${group.id}/projects?with_issues_enabled=maybe`).expect(400);
    expect(res.body).toEqual({ error: 'with_issues_enabled is invalid' });
  });
});

describe('GET /groups/:id/projects/shared', () => {
  it('lists the projects shared with the group (none: projects are not shared with groups here)', async () => {
    const res = await svc.as({ user: guest }).get(`/api/v4/groups/${group.id}/projects/shared?simple=true`).expect(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-total']).toBe('0');
  });

  it('is 404 for a group the caller may not see', async () => {
    const hidden = await makeGroup(svc, owner, { path: unique('hid'), visibility: 'private' });
    const res = await svc.as({ user: guest }).get(`/api/v4/groups/${hidden.id}/projects/shared`).expect(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
  });
});
