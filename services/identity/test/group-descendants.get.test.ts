import type { Actor } from '@anvil/auth';
import { addMember, Identity, makeGroup, makeUser, rootActor, startIdentity, unique } from './helpers';

type G = { id: number; full_path: string };
let svc: Identity;
let owner: Actor;
let member: Actor;
let outsider: Actor;
let root: G, a: G, a1: G, a1x: G, b: G, pub: G, pubChild: G, privChild: G;

beforeAll(async () => {
  svc = await startIdentity();
  const tag = unique('dg');
  owner = await makeUser(svc);
  member = await makeUser(svc);
  outsider = await makeUser(svc);
  const make = (name: string, attrs: Record<string, unknown> = {}) => makeGroup(svc, owner, { path: `${tag}-${name}`, name: `${tag}-${name}`, ...attrs });
  root = await make('root');
  a = await make('a', { parent_id: root.id });
  b = await make('b', { parent_id: root.id });
  a1 = await make('a1', { parent_id: a.id });
  a1x = await make('a1x', { parent_id: a1.id });
  await make('unrelated');
  pub = await make('pub', { visibility: 'public' });
  pubChild = await make('pub-child', { parent_id: pub.id, visibility: 'public' });
  privChild = await make('pub-private-child', { parent_id: pub.id });
  await addMember(svc, 'groups', a.id, member, 30);
});
afterAll(async () => svc?.stop());

const ids = (body: { id: number }[]) => body.map((g) => g.id);

describe('GET /groups/:id/descendant_groups', () => {
  describe('as a member of the group', () => {
    it('lists every group below it, at any depth, by name, without the group itself', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/descendant_groups`).expect(200);
      expect(ids(res.body)).toEqual([a.id, a1.id, a1x.id, b.id]);
      expect(res.body[2]).toMatchObject({ id: a1x.id, parent_id: a1.id, full_path: a1x.full_path });
      expect(res.headers['x-total']).toBe('4');
    });

    it('paginates with GitLab headers', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/descendant_groups?per_page=3&page=2`).expect(200);
      expect(ids(res.body)).toEqual([b.id]);
      expect(res.headers).toMatchObject({ 'x-total': '4', 'x-total-pages': '2', 'x-page': '2', 'x-per-page': '3', 'x-prev-page': '1', 'x-next-page': '' });
    });

    it('takes the group list params: search, skip_groups, order_by and sort', async () => {
      const searched = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/descendant_groups?search=a1`).expect(200);
      expect(ids(searched.body)).toEqual([a1.id, a1x.id]);
      const skipped = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/descendant_groups?skip_groups[]=${a1.id}&skip_groups[]=${b.id}`).expect(200);
      expect(ids(skipped.body)).toEqual([a.id, a1x.id]);
      const byId = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/descendant_groups?order_by=id&sort=desc`).expect(200);
      expect(ids(byId.body)).toEqual([a1x.id, a1.id, b.id, a.id]);
    });

    it('answers 400 for an invalid order_by', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/descendant_groups?order_by=size`).expect(400);
      expect(res.body).toEqual({ error: 'order_by does not have a valid value' });
    });

    it('differs from subgroups, which lists direct children only', async () => {
      const res = await svc.as({ user: owner }).get(`/api/v4/groups/${root.id}/subgroups`).expect(200);
      expect(ids(res.body)).toEqual([a.id, b.id]);
    });
  });

  describe('as a member of a subgroup only', () => {
    it('lists the descendants of the subgroup they can see', async () => {
      const res = await svc.as({ user: member }).get(`/api/v4/groups/${a.id}/descendant_groups`).expect(200);
      expect(ids(res.body)).toEqual([a1.id, a1x.id]);
    });
  });

  describe('on a public group', () => {
    it('shows anonymous callers and non-members only the descendants they may see', async () => {
      const anon = await svc.as({ user: null }).get(`/api/v4/groups/${pub.id}/descendant_groups`).expect(200);
      expect(ids(anon.body)).toEqual([pubChild.id]);
      const other = await svc.as({ user: outsider }).get(`/api/v4/groups/${pub.id}/descendant_groups?all_available=true`).expect(200);
      expect(ids(other.body)).toEqual([pubChild.id]);
      const admin = await svc.as({ user: await rootActor(svc) }).get(`/api/v4/groups/${pub.id}/descendant_groups`).expect(200);
      expect(ids(admin.body)).toEqual([pubChild.id, privChild.id]);
    });
  });

  describe('on a private group the caller cannot see', () => {
    it('returns 404 Group Not Found', async () => {
      const res = await svc.as({ user: outsider }).get(`/api/v4/groups/${root.id}/descendant_groups`).expect(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
      expect((await svc.as({ user: null }).get(`/api/v4/groups/${root.id}/descendant_groups`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
    });
  });
});
