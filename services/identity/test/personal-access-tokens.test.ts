import { hashToken } from '@anvil/auth';
import type { EventEnvelope } from '@anvil/events';
import { events, Identity, internal, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
const subs: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of subs) await s.close();
  await svc?.stop();
});

const FIELDS = ['id', 'name', 'revoked', 'created_at', 'description', 'scopes', 'user_id', 'last_used_at', 'active', 'expires_at'];

describe('POST /users/:user_id/personal_access_tokens', () => {
  describe('as an administrator', () => {
    it('creates a token for the user, shows it once and stores only its digest', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const res = await svc.as({ user: root }).post(`/api/v4/users/${u.id}/personal_access_tokens`).send({ name: 'ci', scopes: ['api', 'read_registry'], expires_at: '2999-01-31' }).expect(201);
      expect(Object.keys(res.body)).toEqual([...FIELDS, 'token']);
      expect(res.body).toMatchObject({ name: 'ci', revoked: false, scopes: ['api', 'read_registry'], user_id: u.id, active: true, expires_at: '2999-01-31', last_used_at: null });
      expect(res.body.token).toMatch(/^glpat-/);
      const row = await svc.deps.db('personal_access_tokens').where({ id: res.body.id }).first();
      expect(row.token_digest).toBe(hashToken(res.body.token));
      expect(JSON.stringify(row)).not.toContain(res.body.token);
    });

    it('returns 404 for an unknown user', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).post('/api/v4/users/999999/personal_access_tokens').send({ name: 'x', scopes: ['api'] }).expect(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    });

    it('returns 400 for an unknown scope', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).post(`/api/v4/users/${root.id}/personal_access_tokens`).send({ name: 'x', scopes: ['api', 'everything'] }).expect(400);
      expect(res.body).toEqual({ error: 'scopes does not have a valid value' });
    });

    it('returns 400 for missing name and scopes', async () => {
      const root = await rootActor(svc);
      const res = await svc.as({ user: root }).post(`/api/v4/users/${root.id}/personal_access_tokens`).send({}).expect(400);
      expect(res.body).toEqual({ error: 'name, scopes are missing' });
    });
  });

  describe('as a regular user', () => {
    it('returns 403 for another user', async () => {
      const me = await makeUser(svc);
      const other = await makeUser(svc);
      const res = await svc.as({ user: me }).post(`/api/v4/users/${other.id}/personal_access_tokens`).send({ name: 'x', scopes: ['api'] }).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      const root = await rootActor(svc);
      expect((await svc.as({ user: root }).get(`/api/v4/personal_access_tokens?user_id=${other.id}`).expect(200)).body).toEqual([]);
    });
  });
});

describe('POST /user/personal_access_tokens', () => {
  it('creates a token for the caller', async () => {
    const me = await makeUser(svc);
    const res = await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'mine', scopes: 'read_api,read_user' }).expect(201);
    expect(res.body).toMatchObject({ user_id: me.id, scopes: ['read_api', 'read_user'], expires_at: null, active: true });
  });
});

describe('GET /personal_access_tokens', () => {
  it("lists the caller's own tokens only", async () => {
    const me = await makeUser(svc);
    const other = await makeUser(svc);
    await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'a', scopes: ['api'] }).expect(201);
    await svc.as({ user: other }).post('/api/v4/user/personal_access_tokens').send({ name: 'b', scopes: ['api'] }).expect(201);
    const res = await svc.as({ user: me }).get('/api/v4/personal_access_tokens').expect(200);
    expect(res.body.map((t: { name: string; user_id: number }) => [t.name, t.user_id])).toEqual([['a', me.id]]);
    expect(Object.keys(res.body[0])).toEqual(FIELDS);
    expect(res.headers['x-total']).toBe('1');
  });

  it('lets an administrator filter by user_id and refuses that to others (401)', async () => {
    const root = await rootActor(svc);
    const me = await makeUser(svc);
    const other = await makeUser(svc);
    await svc.as({ user: other }).post('/api/v4/user/personal_access_tokens').send({ name: 'b', scopes: ['api'] }).expect(201);
    const res = await svc.as({ user: root }).get(`/api/v4/personal_access_tokens?user_id=${other.id}`).expect(200);
    expect(res.body.map((t: { user_id: number }) => t.user_id)).toEqual([other.id]);
    expect((await svc.as({ user: me }).get(`/api/v4/personal_access_tokens?user_id=${other.id}`).expect(401)).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('GET /personal_access_tokens/:id and /self', () => {
  it('shows own tokens; 401 for another user’s; the request token through /self', async () => {
    const me = await makeUser(svc);
    const other = await makeUser(svc);
    const mine = (await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'a', scopes: ['api'] }).expect(201)).body;
    const theirs = (await svc.as({ user: other }).post('/api/v4/user/personal_access_tokens').send({ name: 'b', scopes: ['api'] }).expect(201)).body;
    const got = await svc.as({ user: me }).get(`/api/v4/personal_access_tokens/${mine.id}`).expect(200);
    expect(got.body).toMatchObject({ id: mine.id, name: 'a' });
    expect(got.body.token).toBeUndefined();
    expect((await svc.as({ user: me }).get(`/api/v4/personal_access_tokens/${theirs.id}`).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    const self = await svc.as({ user: me, token_id: mine.id }).get('/api/v4/personal_access_tokens/self').expect(200);
    expect(self.body.id).toBe(mine.id);
  });

  it('answers 404 to an administrator for an unknown id', async () => {
    const root = await rootActor(svc);
    const res = await svc.as({ user: root }).get('/api/v4/personal_access_tokens/999999').expect(404);
    expect(res.body).toEqual({ message: '404 Not Found' });
  });
});

describe('DELETE /personal_access_tokens/:id and /self', () => {
  it('revokes, after which the token no longer resolves', async () => {
    const me = await makeUser(svc);
    const t = (await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'a', scopes: ['api'] }).expect(201)).body;
    await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(200);
    await svc.as({ user: me }).delete(`/api/v4/personal_access_tokens/${t.id}`).set('content-type', 'application/json').expect(204);
    expect((await svc.deps.db('personal_access_tokens').where({ id: t.id }).first()).revoked).toBe(true);
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(401);
    expect(res.body).toEqual({ error: 'revoked' });
  });

  it("refuses another user's token with 400 and leaves it active", async () => {
    const me = await makeUser(svc);
    const other = await makeUser(svc);
    const t = (await svc.as({ user: other }).post('/api/v4/user/personal_access_tokens').send({ name: 'b', scopes: ['api'] }).expect(201)).body;
    expect((await svc.as({ user: me }).delete(`/api/v4/personal_access_tokens/${t.id}`).expect(400)).body).toEqual({ message: '400 Bad request' });
    expect((await svc.deps.db('personal_access_tokens').where({ id: t.id }).first()).revoked).toBe(false);
  });

  it('revokes the token the request used through /self', async () => {
    const me = await makeUser(svc);
    const t = (await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'a', scopes: ['api'] }).expect(201)).body;
    const res = await svc.as({ user: me, token_id: t.id }).delete('/api/v4/personal_access_tokens/self').expect(204);
    expect(res.text).toBe('');
    expect((await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(401)).body).toEqual({ error: 'revoked' });
    expect((await svc.as({ user: me }).get(`/api/v4/personal_access_tokens/${t.id}`).expect(200)).body).toMatchObject({ id: t.id, revoked: true, active: false });
  });

  it('writes identity.token.revoked to the outbox with the revocation, and none for a refused one', async () => {
    const me = await makeUser(svc);
    const other = await makeUser(svc);
    const t = (await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'a', scopes: ['api'] }).expect(201)).body;
    expect((await svc.as({ user: other }).delete(`/api/v4/personal_access_tokens/${t.id}`).expect(400)).body).toEqual({ message: '400 Bad request' });
    expect(await events(svc, 'identity.token.revoked', { id: t.id })).toEqual([]);
    await svc.as({ user: me }).delete(`/api/v4/personal_access_tokens/${t.id}`).expect(204);
    const rows = await events(svc, 'identity.token.revoked', { id: t.id });
    expect(rows.map((r) => [r.producer, r.data])).toEqual([['identity', { id: t.id, user_id: me.id }]]);
    expect((await svc.as({ user: me }).delete(`/api/v4/personal_access_tokens/${t.id}`).expect(400)).body).toEqual({ message: '400 Bad request' });
    expect(await events(svc, 'identity.token.revoked', { id: t.id })).toHaveLength(1);
  });

  it('publishes identity.token.revoked for /self to an identity.# subscriber (what the gateway binds)', async () => {
    const me = await makeUser(svc);
    const t = (await svc.as({ user: me }).post('/api/v4/user/personal_access_tokens').send({ name: 'a', scopes: ['api'] }).expect(201)).body;
    const seen: EventEnvelope[] = [];
    let arrived!: () => void;
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const sub = await svc.deps.bus.subscribe(`${svc.deps.schema}.gateway-cache`, ['identity.#'], async (e) => {
      seen.push(e);
      if (e.type === 'identity.token.revoked') arrived();
    });
    subs.push(sub);
    await svc.as({ user: me, token_id: t.id }).delete('/api/v4/personal_access_tokens/self').expect(204);
    await got;
    expect(seen.find((e) => e.type === 'identity.token.revoked')?.data).toEqual({ id: t.id, user_id: me.id });
  });

  it('returns 404 for an unknown id', async () => {
    const me = await makeUser(svc);
    const res = await svc.as({ user: me }).delete('/api/v4/personal_access_tokens/999999').expect(404);
    expect(res.body).toEqual({ message: '404 Not Found' });
  });
});
