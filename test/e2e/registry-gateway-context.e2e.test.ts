import { startMiniFleet, userWithProject, type MiniFleet } from './registry-fleet';

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
  // the last test stops the registry itself; the fleet stops what is still running
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

describe('ping, a shared answer', () => {
  it('is answered by the gateway after the first time, to anyone, still checking credentials first', async () => {
    const url = `${f.url}/api/v4/projects/12345/packages/conan/v1/ping`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-conan-server-capabilities')).toBe('revisions');
    expect([...first.headers.keys()].filter((h) => h.startsWith('x-anvil-'))).toEqual([]);
    expect(f.gateway.gateway.sharedAnswers.get(`registry /api/v4/projects/12345/packages/conan/v1/ping`)).toBeDefined();

    // the registry is no longer asked: stopping it does not change the answer
    await f.registry.stop();
    const again = await fetch(url, { headers: { 'X-Request-Id': 'second-ping' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-conan-server-capabilities')).toBe('revisions');
    expect(again.headers.get('x-request-id')).toBe('second-ping');
    expect(again.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await again.text()).toBe('');
    const sudo = await fetch(`${url}?sudo=1`);
    expect(sudo.status).toBe(401);
    // another path is another answer: it needs the registry
    expect((await fetch(`${f.url}/api/v4/projects/12346/packages/conan/v1/ping`)).status).toBe(502);
  });

  it('answers 502 to an upload the registry cannot pre-authorise, and keeps nothing of its body', async () => {
    const owner = await userWithProject(f, 'ctx-down', 'ctxdown');
    const url = `${f.url}/api/v4/projects/${owner.projectId}/packages/conan/v2/conans/down/1.0/${owner.fullPath.replace('/', '+')}/stable/revisions/d41d8cd98f00b204e9800998ecf8427e/files/conanfile.py`;
    const r = await fetch(url, { method: 'PUT', headers: { Authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}` }, body: Buffer.alloc(300_000, 7) });
    expect(r.status).toBe(502);
    expect(await r.json()).toEqual({ message: '502 Bad Gateway' });
    const left: string[] = [];
    for (let i = 0; i < 50; i++) {
      left.length = 0;
      for await (const o of f.registry.deps.storage.list('uploads/')) left.push(o.key);
      if (!left.length) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(left).toEqual([]);
  });
});
