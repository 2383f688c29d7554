import type { Actor } from '@anvil/auth';
import { addMember, events, Identity, internal, makeGroup, makeProject, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

async function tokenOf(user: Actor): Promise<{ id: number; token: string }> {
  return (await svc.as({ user }).post('/api/v4/user/personal_access_tokens').send({ name: 't', scopes: ['api'] }).expect(201)).body;
}

const resolve = (token: string) => internal(svc).post('/v1/tokens/resolve').send({ token });

describe('POST /users/:id/block', () => {
  describe('as an administrator', () => {
    it('blocks the user, writes identity.user.updated, and their tokens stop resolving', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const t = await tokenOf(u);
      const res = await svc.as({ user: root }).post(`/api/v4/users/${u.id}/block`).expect(201);
      expect(res.body).toBe(true);
      expect((await svc.deps.db('users').where({ id: u.id }).first()).state).toBe('blocked');
      expect((await events(svc, 'identity.user.updated', { id: u.id })).map((e) => e.data.state)).toEqual(['blocked']);
      expect((await resolve(t.token).expect(401)).body).toEqual({ error: 'blocked' });
    });

    it('answers 201 null for an already blocked user and writes nothing more', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      await svc.as({ user: root }).post(`/api/v4/users/${u.id}/block`).expect(201);
      const again = await svc.as({ user: root }).post(`/api/v4/users/${u.id}/block`).expect(201);
      expect(again.text).toBe('null');
      expect(await events(svc, 'identity.user.updated', { id: u.id })).toHaveLength(1);
    });

    it('refuses to block the calling administrator (403)', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).post(`/api/v4/users/${root.id}/block`).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden - The API initiating user cannot be blocked by the API' });
    });

    it('returns 404 for an unknown user', async () => {
      const root = await rootActor(svc);
      expect((await svc.as({ user: root }).post('/api/v4/users/999999/block').expect(404)).body).toEqual({ message: '404 User Not Found' });
    });
  });

  describe('as anyone else', () => {
    it('returns 403 to a regular user and 401 to an anonymous caller, blocking nobody', async () => {
      const me = await makeUser(svc);
      const u = await makeUser(svc);
      expect((await svc.as({ user: me }).post(`/api/v4/users/${u.id}/block`).expect(403)).body).toEqual({ message: '403 Forbidden' });
      expect((await svc.as({ user: null }).post(`/api/v4/users/${u.id}/block`).expect(401)).body).toEqual({ message: '401 Unauthorized' });
      expect((await svc.deps.db('users').where({ id: u.id }).first()).state).toBe('active');
    });
  });
});

describe('POST /users/:id/unblock', () => {
  it('unblocks (201 true) so the tokens resolve again; 201 false for an active user', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const t = await tokenOf(u);
    await svc.as({ user: root }).post(`/api/v4/users/${u.id}/block`).expect(201);
    expect((await svc.as({ user: root }).post(`/api/v4/users/${u.id}/unblock`).expect(201)).body).toBe(true);
    await resolve(t.token).expect(200);
    expect((await events(svc, 'identity.user.updated', { id: u.id })).map((e) => e.data.state)).toEqual(['blocked', 'active']);
    expect((await svc.as({ user: root }).post(`/api/v4/users/${u.id}/unblock`).expect(201)).body).toBe(false);
  });
});

describe('DELETE /users/:id', () => {
  describe('as an administrator', () => {
    it('deletes the user with namespace, projects, memberships and tokens, writing their events', async () => {
      const root = await rootActor(svc);
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      const u = await makeUser(svc);
      await addMember(svc, 'groups', group.id, u, 30);
      const project = await makeProject(svc, u);
      const live = await tokenOf(u);
      const revoked = await tokenOf(u);
      await svc.as({ user: u }).delete(`/api/v4/personal_access_tokens/${revoked.id}`).expect(204);
      await svc.as({ user: root }).delete(`/api/v4/users/${u.id}`).expect(204);
      expect(await svc.deps.db('users').where({ id: u.id }).first()).toBeUndefined();
      expect(await svc.deps.db('projects').where({ id: project.id }).first()).toBeUndefined();
      expect(await svc.deps.db('members').where({ user_id: u.id })).toEqual([]);
      expect(await svc.deps.db('personal_access_tokens').where({ user_id: u.id })).toEqual([]);
      expect(await events(svc, 'identity.project.deleted', { id: project.id })).toHaveLength(1);
      expect((await events(svc, 'identity.membership.deleted', { user_id: u.id })).map((e) => [e.data.source_type, e.data.source_id])).toEqual([
        ['Project', project.id],
        ['Namespace', group.id],
      ]);
      expect((await events(svc, 'identity.token.revoked', { user_id: u.id })).map((e) => e.data.id)).toEqual([revoked.id, live.id]);
      expect((await events(svc, 'identity.user.deleted', { id: u.id })).map((e) => e.data.username)).toEqual([u.username]);
      expect((await resolve(live.token).expect(401)).body).toEqual({ error: 'unknown' });
    });

    it('refuses a sole group Owner with 409 and deletes nothing; hard_delete deletes the group too', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const group = await makeGroup(svc, u);
      const res = await svc.as({ user: root }).delete(`/api/v4/users/${u.id}`).expect(409);
      expect(res.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });
      expect(await svc.deps.db('users').where({ id: u.id }).first()).toBeDefined();
      expect(await events(svc, 'identity.user.deleted', { id: u.id })).toEqual([]);
      await svc.as({ user: root }).delete(`/api/v4/users/${u.id}?hard_delete=true`).expect(204);
      expect(await svc.deps.db('namespaces').where({ id: group.id }).first()).toBeUndefined();
      expect(await events(svc, 'identity.group.deleted', { id: group.id })).toHaveLength(1);
      expect(await events(svc, 'identity.user.deleted', { id: u.id })).toHaveLength(1);
    });

    it('deletes a group Owner who shares ownership, keeping the group', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const other = await makeUser(svc);
      const group = await makeGroup(svc, u);
      await addMember(svc, 'groups', group.id, other, 50);
      await svc.as({ user: root }).delete(`/api/v4/users/${u.id}`).expect(204);
      expect(await svc.deps.db('namespaces').where({ id: group.id }).first()).toBeDefined();
    });

    it('returns 404 for an unknown user', async () => {
      const root = await rootActor(svc);
      expect((await svc.as({ user: root }).delete('/api/v4/users/999999').expect(404)).body).toEqual({ message: '404 User Not Found' });
    });
  });

  describe('as a regular user', () => {
    it('returns 403 and deletes nobody', async () => {
      const me = await makeUser(svc);
      const u = await makeUser(svc);
      expect((await svc.as({ user: me }).delete(`/api/v4/users/${u.id}`).expect(403)).body).toEqual({ message: '403 Forbidden' });
      expect(await svc.deps.db('users').where({ id: u.id }).first()).toBeDefined();
    });
  });
});
