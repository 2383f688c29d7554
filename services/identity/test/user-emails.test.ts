import { events, Identity, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const address = () => `${unique('mail')}@Example.com`;

describe('GET /user/emails', () => {
  describe('as a signed-in user', () => {
    it('lists only the caller\'s secondary addresses, paginated', async () => {
      const me = await makeUser(svc);
      const other = await makeUser(svc);
      const a = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
      await svc.as({ user: other }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
      const res = await svc.as({ user: me }).get('/api/v4/user/emails').expect(200);
      expect(res.body).toEqual([{ id: a.body.id, email: a.body.email, confirmed_at: null }]);
      expect(res.headers['x-total']).toBe('1');
    });
  });

  describe('anonymous', () => {
    it('returns 401', async () => {
      const res = await svc.as({ user: null }).get('/api/v4/user/emails').expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });
});

describe('GET /user/emails/:email_id', () => {
  it('returns one of the caller\'s addresses', async () => {
    const me = await makeUser(svc);
    const a = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
    const res = await svc.as({ user: me }).get(`/api/v4/user/emails/${a.body.id}`).expect(200);
    expect(res.body).toEqual(a.body);
  });

  it('returns 404 Email Not Found for another user\'s address', async () => {
    const me = await makeUser(svc);
    const other = await makeUser(svc);
    const a = await svc.as({ user: other }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
    const res = await svc.as({ user: me }).get(`/api/v4/user/emails/${a.body.id}`).expect(404);
    expect(res.body).toEqual({ message: '404 Email Not Found' });
  });
});

describe('POST /user/emails', () => {
  describe('as a signed-in user', () => {
    it('adds an unconfirmed, lower-cased address and writes identity.email.created', async () => {
      const me = await makeUser(svc);
      const email = address();
      const res = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email }).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), email: email.toLowerCase(), confirmed_at: null });
      expect(await svc.deps.db('emails').where({ id: res.body.id }).first()).toMatchObject({ user_id: me.id, email: email.toLowerCase() });
      const [ev] = await events(svc, 'identity.email.created', { id: res.body.id });
      expect(ev.data).toEqual({ id: res.body.id, user_id: me.id, email: email.toLowerCase(), confirmed_at: null });
    });

    it('ignores skip_confirmation', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: address(), skip_confirmation: true }).expect(201);
      expect(res.body.confirmed_at).toBeNull();
    });

    it('returns 400 when another user holds the address as primary, case-insensitively', async () => {
      const me = await makeUser(svc);
      const other = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: `${other.username.toUpperCase()}@example.com` }).expect(400);
      expect(res.body).toEqual({ message: { email: ['has already been taken'] } });
    });

    it('returns 400 when another user holds the address as a secondary one', async () => {
      const me = await makeUser(svc);
      const other = await makeUser(svc);
      const email = address();
      await svc.as({ user: other }).post('/api/v4/user/emails').send({ email }).expect(201);
      const res = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: email.toUpperCase() }).expect(400);
      expect(res.body).toEqual({ message: { email: ['has already been taken'] } });
    });

    it('returns 400 for the caller\'s own primary address', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: `${me.username}@example.com` }).expect(400);
      expect(res.body).toEqual({ message: { email: ['has already been taken'] } });
    });

    it('returns 400 for a malformed address and for a missing one', async () => {
      const me = await makeUser(svc);
      const bad = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: 'not an address' }).expect(400);
      expect(bad.body).toEqual({ message: { email: ['is invalid'] } });
      const missing = await svc.as({ user: me }).post('/api/v4/user/emails').send({}).expect(400);
      expect(missing.body).toEqual({ error: 'email is missing' });
    });
  });

  describe('as a POST /users afterwards', () => {
    it('returns 409 when creating a user with someone\'s secondary address', async () => {
      const me = await makeUser(svc);
      const email = address();
      await svc.as({ user: me }).post('/api/v4/user/emails').send({ email }).expect(201);
      const root = await rootActor(svc);
      const username = unique('dup');
      const res = await svc.as({ user: root }).post('/api/v4/users').send({ username, name: username, email, password: 'long-enough-pw' }).expect(409);
      expect(res.body).toEqual({ message: 'Email has already been taken' });
    });
  });
});

describe('DELETE /user/emails/:email_id', () => {
  it('deletes the address, resets a commit e-mail that used it, and writes identity.email.deleted', async () => {
    const me = await makeUser(svc);
    const a = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
    await svc.deps.db('users').where({ id: me.id }).update({ commit_email: a.body.email });
    await svc.as({ user: me }).delete(`/api/v4/user/emails/${a.body.id}`).expect(204);
    expect(await svc.deps.db('emails').where({ id: a.body.id }).first()).toBeUndefined();
    expect((await svc.deps.db('users').where({ id: me.id }).first()).commit_email).toBeNull();
    expect(await events(svc, 'identity.email.deleted', { id: a.body.id })).toHaveLength(1);
  });

  it('returns 404 Email Not Found for an unknown id (the primary address has none)', async () => {
    const me = await makeUser(svc);
    const res = await svc.as({ user: me }).delete('/api/v4/user/emails/999999').expect(404);
    expect(res.body).toEqual({ message: '404 Email Not Found' });
    expect((await svc.deps.db('users').where({ id: me.id }).first()).email).toBe(`${me.username}@example.com`);
  });
});

describe('GET /users/:id/emails', () => {
  it('lists a user\'s addresses to an administrator', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const a = await svc.as({ user: u }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
    const res = await svc.as({ user: root }).get(`/api/v4/users/${u.id}/emails`).expect(200);
    expect(res.body).toEqual([a.body]);
  });

  it('returns 403 to a regular user and 404 User Not Found for an unknown user', async () => {
    const me = await makeUser(svc);
    await svc.as({ user: me }).get(`/api/v4/users/${me.id}/emails`).expect(403);
    const res = await svc.as({ user: await rootActor(svc) }).get('/api/v4/users/999999/emails').expect(404);
    expect(res.body).toEqual({ message: '404 User Not Found' });
  });
});

describe('POST /users/:id/emails', () => {
  it('adds a confirmed address with skip_confirmation', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const res = await svc.as({ user: root }).post(`/api/v4/users/${u.id}/emails`).send({ email: address(), skip_confirmation: true }).expect(201);
    expect(res.body.confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await svc.deps.db('emails').where({ id: res.body.id }).first()).toMatchObject({ user_id: u.id });
  });

  it('adds an unconfirmed address without it', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const res = await svc.as({ user: root }).post(`/api/v4/users/${u.id}/emails`).send({ email: address() }).expect(201);
    expect(res.body.confirmed_at).toBeNull();
  });

  it('returns 403 to a regular user, even for themselves', async () => {
    const me = await makeUser(svc);
    const res = await svc.as({ user: me }).post(`/api/v4/users/${me.id}/emails`).send({ email: address() }).expect(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });
});

describe('DELETE /users/:id/emails/:email_id', () => {
  it('deletes a user\'s address as an administrator', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const a = await svc.as({ user: root }).post(`/api/v4/users/${u.id}/emails`).send({ email: address() }).expect(201);
    await svc.as({ user: root }).delete(`/api/v4/users/${u.id}/emails/${a.body.id}`).expect(204);
    expect(await svc.deps.db('emails').where({ id: a.body.id }).first()).toBeUndefined();
  });

  it('returns 404 Email Not Found for another user\'s address', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const v = await makeUser(svc);
    const a = await svc.as({ user: root }).post(`/api/v4/users/${v.id}/emails`).send({ email: address() }).expect(201);
    const res = await svc.as({ user: root }).delete(`/api/v4/users/${u.id}/emails/${a.body.id}`).expect(404);
    expect(res.body).toEqual({ message: '404 Email Not Found' });
  });

  it('returns 403 to a regular user', async () => {
    const me = await makeUser(svc);
    const a = await svc.as({ user: me }).post('/api/v4/user/emails').send({ email: address() }).expect(201);
    await svc.as({ user: me }).delete(`/api/v4/users/${me.id}/emails/${a.body.id}`).expect(403);
  });
});
