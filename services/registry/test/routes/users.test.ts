import jwt from 'jsonwebtoken';
import { AccessLevel, monthsLater, REUSABLE_ANSWER_HEADER, verifyConanJwt } from '@anvil/auth';
import { anon, asUser, project, signedWith, startRegistry, user, v1i, v1p, v2, type Registry } from '../helpers';

const SECRET = 'test-conan-secret';

describe('GET users/authenticate', () => {
  let svc: Registry;
  beforeAll(async () => {
    svc = await startRegistry();
  });
  afterAll(async () => {
    await svc?.stop();
  });
  const p = project('private', AccessLevel.DEVELOPER);
  const dev = user('dev');
  // The gateway passes the token's expiry, so no identity round trip is needed here (identity.integration covers that path).
  const auth = (path: string, as: Parameters<typeof asUser>[2], expires: string | null = null) => signedWith(svc, 'get', path, asUser(dev, p, as), { token_expires_at: expires });

  describe.each([
    ['instance v1', `${v1i}/users/authenticate`],
    ['project v1', `${v1p(p)}/users/authenticate`],
    ['project v2', `${v2(p)}/users/authenticate`],
    ['instance v2', '/api/v4/packages/conan/v2/users/authenticate'],
  ])('%s', (_name, path) => {
    it('answers a plain-text HS256 JWT with GitLab’s claims for Basic username:token', async () => {
      const before = Math.floor(Date.now() / 1000);
      const r = await auth(path, { auth: 'basic', token_id: 42 }).expect(200);
      expect(r.headers['content-type']).toBe('text/plain');
      const decoded = jwt.decode(r.text, { complete: true })!;
      expect(decoded.header).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decoded.payload as Record<string, number | string>;
      expect(Object.keys(claims).sort()).toEqual(['access_token', 'exp', 'iat', 'jti', 'nbf', 'user_id']);
      expect(claims.access_token).toBe(42);
      expect(claims.user_id).toBe(dev.id);
      expect(claims.iat).toBeGreaterThanOrEqual(before);
      expect(claims.nbf).toBe(Number(claims.iat) - 5);
      expect(claims.exp).toBe(monthsLater(Number(claims.iat), 3));
      expect(verifyConanJwt(SECRET, r.text)).toEqual({ access_token: 42, user_id: dev.id });
      // the same token holds for the same credential: the gateway may give it again for 10 s
      expect(r.headers[REUSABLE_ANSWER_HEADER]).toBe('max-age=10');
    });

    it('answers 401 without credentials', async () => {
      const r = await svc.as(anon(p)).get(path).expect(401);
      expect(r.body).toEqual({ message: '401 Unauthorized' });
    });

    it('answers 401 for Basic username:password (no token behind it)', async () => {
      await svc.as({ user: dev, auth: 'basic', scopes: ['api'], project: p }).get(path).expect(401, { message: '401 Unauthorized' });
    });
  });

  it('caps the expiry at the start of the token’s expiry day', async () => {
    const day = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);
    const r = await auth(`${v2(p)}/users/authenticate`, { token_id: 7 }, day).expect(200);
    const claims = jwt.decode(r.text) as Record<string, number>;
    expect(claims.exp).toBe(Date.parse(`${day}T00:00:00Z`) / 1000);
  });

  it('re-issues a token for a registry JWT credential', async () => {
    const r = await auth(`${v2(p)}/users/authenticate`, { auth: 'jwt', token_id: 9 }).expect(200);
    expect(verifyConanJwt(SECRET, r.text)).toEqual({ access_token: 9, user_id: dev.id });
  });

  it('answers 403 insufficient_scope for a token without api or read_api', async () => {
    const r = await svc.as(asUser(dev, p, { scopes: ['read_user'] })).get(`${v1i}/users/authenticate`).expect(403);
    expect(r.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api read_api',
    });
  });
});

describe('GET users/check_credentials', () => {
  let svc: Registry;
  beforeAll(async () => {
    svc = await startRegistry();
  });
  afterAll(async () => {
    await svc?.stop();
  });
  const p = project('public');
  const dev = user('dev');

  it.each([
    ['instance v1', `${v1i}/users/check_credentials`],
    ['project v1', `${v1p(p)}/users/check_credentials`],
    ['project v2', `${v2(p)}/users/check_credentials`],
  ])('%s answers text "ok" for a JWT, a PAT or Basic with a token, 401 for nobody', async (_n, path) => {
    for (const auth of ['jwt', 'pat', 'basic'] as const) {
      const r = await svc.as(asUser(dev, p, { auth })).get(path).expect(200);
      expect(r.text).toBe('ok');
      expect(r.headers['content-type']).toBe('text/plain');
    }
    const r = await svc.as(anon(p)).get(path).expect(401);
    expect(r.body).toEqual({ message: '401 Unauthorized' });
  });

  it('has no instance-level v2 check_credentials', async () => {
    await svc.as(asUser(dev)).get('/api/v4/packages/conan/v2/users/check_credentials').expect(404, { error: '404 Not Found' });
  });

  it('accepts a read_api token (GET)', async () => {
    await svc.as(asUser(dev, p, { scopes: ['read_api'] })).get(`${v2(p)}/users/check_credentials`).expect(200, 'ok');
  });
});
