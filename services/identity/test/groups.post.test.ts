import { addMember, events, Identity, makeGroup, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('POST /groups', () => {
  describe('as a user', () => {
    it('creates a top-level group with the caller as Owner, and writes the events', async () => {
      const me = await makeUser(svc);
      const path = unique('top');
      const res = await svc.as({ user: me }).post('/api/v4/groups').send({ name: 'Top Group', path, description: 'd', visibility: 'internal' }).expect(201);
      expect(res.body).toMatchObject({
        name: 'Top Group', path, full_path: path, full_name: 'Top Group', description: 'd', visibility: 'internal', parent_id: null,
        web_url: `http://127.0.0.1:8080/groups/${path}`, project_creation_level: 'maintainer', subgroup_creation_level: 'maintainer',
        request_access_enabled: true, shared_with_groups: [], prevent_sharing_groups_outside_hierarchy: false,
      });
      expect(res.body.projects).toBeUndefined();
      expect(await svc.deps.db('members').where({ source_type: 'Namespace', source_id: res.body.id }).select('user_id', 'access_level')).toEqual([{ user_id: me.id, access_level: 50 }]);
      const [ev] = await events(svc, 'identity.group.created', { id: res.body.id });
      expect(ev.data).toEqual({ id: res.body.id, name: 'Top Group', path, full_path: path, parent_id: null, visibility: 'internal', traversal_ids: [res.body.id] });
      expect(await events(svc, 'identity.membership.created', { source_type: 'Namespace', source_id: res.body.id, user_id: me.id, access_level: 50 })).toHaveLength(1);
    });

    it('returns GitLab’s "Failed to save group" 400 for a taken path (case-insensitive)', async () => {
      const me = await makeUser(svc);
      const g = await makeGroup(svc, me);
      const res = await svc.as({ user: me }).post('/api/v4/groups').send({ name: 'x', path: g.path.toUpperCase() }).expect(400);
      expect(res.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    });

    it('returns 400 for a path taken by a user', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/groups').send({ name: 'x', path: me.username }).expect(400);
      expect(res.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    });

    it('returns 400 for missing name and path', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/groups').send({}).expect(400);
      expect(res.body).toEqual({ error: 'name, path are missing' });
    });

    it('refuses a user who may not create groups', async () => {
      const me = await makeUser(svc, { can_create_group: false });
      const path = unique('no');
      const res = await svc.as({ user: me }).post('/api/v4/groups').send({ name: 'x', path }).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      const root = await rootActor(svc);
      expect((await svc.as({ user: root }).get(`/api/v4/groups?search=${path}`).expect(200)).body).toEqual([]);
    });
  });

  describe('a subgroup', () => {
    it('is created by a Maintainer of the parent, under the parent’s full path', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const parent = await makeGroup(svc, owner, { name: 'Parent' });
      await addMember(svc, 'groups', parent.id, maintainer, 40);
      const res = await svc.as({ user: maintainer }).post('/api/v4/groups').send({ name: 'Child', path: 'child', parent_id: parent.id }).expect(201);
      expect(res.body).toMatchObject({ full_path: `${parent.full_path}/child`, full_name: 'Parent / Child', parent_id: parent.id });
      const [ev] = await events(svc, 'identity.group.created', { id: res.body.id });
      expect(ev.data.traversal_ids).toEqual([parent.id, res.body.id]);
    });

    it('is refused to a Developer of the parent (403) and to a non-member of a private parent (404)', async () => {
      const owner = await makeUser(svc);
      const dev = await makeUser(svc);
      const outsider = await makeUser(svc);
      const parent = await makeGroup(svc, owner);
      await addMember(svc, 'groups', parent.id, dev, 30);
      expect((await svc.as({ user: dev }).post('/api/v4/groups').send({ name: 'c', path: 'c', parent_id: parent.id }).expect(403)).body).toEqual({ message: '403 Forbidden' });
      const res = await svc.as({ user: outsider }).post('/api/v4/groups').send({ name: 'c', path: 'c', parent_id: parent.id }).expect(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    });

    it('may not be more visible than its parent', async () => {
      const owner = await makeUser(svc);
      const parent = await makeGroup(svc, owner);
      const res = await svc.as({ user: owner }).post('/api/v4/groups').send({ name: 'c', path: 'c', parent_id: parent.id, visibility: 'public' }).expect(400);
      expect(res.body).toEqual({ message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}' });
    });

    it('may reuse a path that exists under another parent', async () => {
      const root = await rootActor(svc);
      const a = await makeGroup(svc, root);
      const b = await makeGroup(svc, root);
      const underA = await svc.as({ user: root }).post('/api/v4/groups').send({ name: 'same', path: 'same', parent_id: a.id }).expect(201);
      const underB = await svc.as({ user: root }).post('/api/v4/groups').send({ name: 'same', path: 'same', parent_id: b.id }).expect(201);
      expect(underA.body).toMatchObject({ path: 'same', full_path: `${a.full_path}/same`, parent_id: a.id });
      expect(underB.body).toMatchObject({ path: 'same', full_path: `${b.full_path}/same`, parent_id: b.id });
      expect(underB.body.id).not.toBe(underA.body.id);
    });
  });
});
