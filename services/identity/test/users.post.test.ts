import { verifyPassword } from '../src/users/passwords';
import { events, Identity, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const attrs = (username = unique('new')) => ({ username, name: `N ${username}`, email: `${username}@example.com`, password: 'long-enough-pw' });

describe('POST /users', () => {
  describe('as an administrator', () => {
    it('creates the user, its namespace, stores a scrypt digest, and writes identity.user.created', async () => {
      const root = await rootActor(svc);
      const a = { ...attrs(), skip_confirmation: true, bio: 'b', external: true };
      const res = await svc.as({ user: root }).post('/api/v4/users').send(a).expect(201);
      expect(res.body).toMatchObject({ username: a.username, name: a.name, email: a.email, state: 'active', is_admin: false, external: true, bio: 'b' });
      expect(res.body.created_by).toMatchObject({ id: root.id, username: 'root' });
      expect(res.body.confirmed_at).not.toBeNull();
      const row = await svc.deps.db('users').where({ id: res.body.id }).first();
      expect(row.password_digest).toMatch(/^scrypt\$/);
      expect(await verifyPassword('long-enough-pw', row.password_digest)).toBe(true);
      const ns = await svc.deps.db('namespaces').where({ owner_id: res.body.id }).first();
      expect(ns).toMatchObject({ kind: 'user', path: a.username, full_path: a.username, id: res.body.namespace_id });
      const [ev] = await events(svc, 'identity.user.created', { id: res.body.id });
      expect(ev.producer).toBe('identity');
      expect(ev.data).toEqual({ id: res.body.id, username: a.username, name: a.name, state: 'active', avatar_url: null, web_url: `http://127.0.0.1:8080/${a.username}`, admin: false });
    });

    it('accepts force_random_password instead of a password', async () => {
      const root = await rootActor(svc);
      const { password: _, ...a } = attrs();
      const res = await svc.as({ user: root }).post('/api/v4/users').send({ ...a, force_random_password: true }).expect(201);
      expect(res.body).toMatchObject({ username: a.username, name: a.name, email: a.email, state: 'active', is_admin: false });
      const row = await svc.deps.db('users').where({ id: res.body.id }).first();
      expect(row.password_digest).toMatch(/^scrypt\$/);
      expect(await events(svc, 'identity.user.created', { id: res.body.id })).toHaveLength(1);
    });

    it('returns 409 "Email has already been taken", case-insensitively', async () => {
      const root = await rootActor(svc);
      const existing = await makeUser(svc);
      const res = await svc.as({ user: root }).post('/api/v4/users').send({ ...attrs(), email: `${existing.username.toUpperCase()}@EXAMPLE.com` }).expect(409);
      expect(res.body).toEqual({ message: 'Email has already been taken' });
    });

    it('returns 409 "Username has already been taken", case-insensitively', async () => {
      const root = await rootActor(svc);
      const existing = await makeUser(svc);
      const res = await svc.as({ user: root }).post('/api/v4/users').send({ ...attrs(existing.username.toUpperCase()), email: `${unique('other')}@example.com` }).expect(409);
      expect(res.body).toEqual({ message: 'Username has already been taken' });
    });

    it('returns 400 with Grape messages for missing attributes', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).post('/api/v4/users').send({ username: 'x' }).expect(400);
      expect(res.body).toEqual({ error: 'email, name are missing, password, reset_password, force_random_password are missing, at least one parameter must be provided' });
    });

    it('returns 400 with field errors for invalid values', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).post('/api/v4/users').send({ ...attrs('-bad'), email: 'nope', password: 'short' }).expect(400);
      expect(res.body).toEqual({
        message: {
          email: ['is invalid'],
          username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."],
          password: ['is too short (minimum is 8 characters)'],
        },
      });
    });

    it('returns 400 when the username is a group path', async () => {
      const root = await rootActor(svc);
      const path = unique('taken');
      await svc.as({ user: root }).post('/api/v4/groups').send({ name: path, path }).expect(201);
      const res = await svc.as({ user: root }).post('/api/v4/users').send(attrs(path)).expect(400);
      expect(res.body).toEqual({ message: { username: ['has already been taken'] } });
    });
  });

  describe('as a regular user', () => {
    it('returns 403 and creates nothing', async () => {
      const me = await makeUser(svc);
      const a = attrs();
      const res = await svc.as({ user: me }).post('/api/v4/users').send(a).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      expect(await svc.deps.db('users').where({ username: a.username }).first()).toBeUndefined();
    });
  });

  describe('anonymous', () => {
    it('returns 401', async () => {
      const a = attrs();
      const res = await svc.as({ user: null }).post('/api/v4/users').send(a).expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
      expect(await svc.deps.db('users').where({ username: a.username }).first()).toBeUndefined();
    });
  });
});
