import { startMiniFleet, userWithProject, type MiniFleet } from './e2e-fleet';

/**
 * What the gateway's signed context tells the registry so it need not ask identity: the expiry of the
 * token behind a request. The registry here cannot reach identity at all (a dead address), so
 * `users/authenticate` only works when the context carries it.
 */
let f: MiniFleet;

beforeAll(async () => {
  f = await startMiniFleet({ IDENTITY_URL: 'http://127.0.0.1:9' });
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as { exp: number; access_token: number; user_id: number };

describe('token expiry in the context', () => {
  it('caps the Conan JWT at the start of the token’s expiry day without the registry asking identity', async () => {
    const owner = await userWithProject(f, 'ctx-exp', 'ctxexp');
    const expires = new Date(Date.now() + 20 * 86400_000).toISOString().slice(0, 10);
    const t = await f.identity.as({ user: f.root }).post(`/api/v4/users/${owner.user.id}/personal_access_tokens`).send({ name: 'dated', scopes: ['api'], expires_at: expires }).expect(201);
    const basic = (token: string) => ({ Authorization: `Basic ${Buffer.from(`ctx-exp:${token}`).toString('base64')}` });
    const url = `${f.url}/api/v4/projects/${owner.projectId}/packages/conan/v2/users/authenticate`;

    const dated = await fetch(url, { headers: basic(t.body.token) });
    expect(dated.status).toBe(200);
    const c = claims(await dated.text());
    expect(c).toMatchObject({ access_token: t.body.id, user_id: owner.user.id });
    expect(c.exp).toBe(Date.parse(`${expires}T00:00:00Z`) / 1000);

    const undated = await fetch(url, { headers: basic(owner.token) });
    expect(undated.status).toBe(200);
    const u = claims(await undated.text());
    expect(u.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(89 * 86400);
  });
});
