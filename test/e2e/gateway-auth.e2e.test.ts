import request from 'supertest';
import { api, basic, createUser, registryJwt, TestUser } from '../../gateway/test/support/fixtures';
import { deadPort, startTestGateway } from '../../gateway/test/support/gateway';
import { Stack, startStack } from './support/gateway-stack';

let s: Stack;
let root: { id: number; username: string };
let alice: TestUser;
let sudoToken: string;
let plainAdminToken: string;

const BAD = { error: 'invalid_token', error_description: 'Bad Access Token.' };
const SCOPE = { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'api read_api' };

beforeAll(async () => {
  s = await startStack();
  root = await api(s.url, s.adminToken, 'get', '/user');
  alice = await createUser(s.url, s.adminToken, 'alice', { api: ['api'], read: ['read_api'], user: ['read_user'], registry: ['read_registry'] });
  sudoToken = (await api<{ token: string }>(s.url, s.adminToken, 'post', `/users/${root.id}/personal_access_tokens`, { name: 'sudo', scopes: ['api', 'sudo'] })).token;
  plainAdminToken = (await api<{ token: string }>(s.url, s.adminToken, 'post', `/users/${root.id}/personal_access_tokens`, { name: 'plain', scopes: ['api'] })).token;
});

afterAll(async () => {
  await s?.stop();
});

describe('authentication methods', () => {
  test.each([
    ['PRIVATE-TOKEN header', (t: string) => ({ path: '/api/v4/todos', headers: { 'PRIVATE-TOKEN': t } })],
    ['private_token parameter', (t: string) => ({ path: `/api/v4/todos?private_token=${t}`, headers: {} })],
    ['Authorization: Bearer', (t: string) => ({ path: '/api/v4/todos', headers: { Authorization: `Bearer ${t}` } })],
  ])('%s authenticates a personal access token', async (_name, make) => {
    const { path, headers } = make(alice.tokens.api.token);
    const res = await request(s.url).get(path).set(headers);
    expect(res.status).toBe(200);
    expect(res.body.ctx).toMatchObject({ user: { id: alice.id, username: alice.username, admin: false }, scopes: ['api'], auth: 'pat', token_id: alice.tokens.api.id });
    expect(res.body.headers['private-token']).toBeUndefined();
    expect(res.body.headers.authorization).toBeUndefined();
  });

  test('registry routes take Basic username:token and pass Authorization on', async () => {
    const res = await request(s.url).get('/api/v4/packages/conan/v1/users/authenticate').set('Authorization', basic(alice.username, alice.tokens.registry.token));
    expect(res.body.service).toBe('registry');
    expect(res.body.ctx).toMatchObject({ user: { id: alice.id }, scopes: ['read_registry'], auth: 'basic', token_id: alice.tokens.registry.id });
    expect(res.body.headers.authorization).toMatch(/^Basic /);
  });

  test.each([
    ['an account password in Basic', () => ({ Authorization: basic(alice.username, alice.password) })],
    ['wrong Basic credentials', () => ({ Authorization: basic(alice.username, 'wrong') })],
    ['PRIVATE-TOKEN', () => ({ 'PRIVATE-TOKEN': alice.tokens.api.token })],
    ['a personal access token as Bearer', () => ({ Authorization: `Bearer ${alice.tokens.api.token}` })],
    ['a Bearer value that is no token at all', () => ({ Authorization: 'Bearer glpat-nope' })],
  ])('on a registry route %s is no credentials (the registry answers)', async (_n, headers) => {
    const res = await request(s.url).get('/api/v4/packages/conan/v1/users/authenticate').set(headers());
    expect(res.status).toBe(200);
    expect(res.body.ctx).toMatchObject({ user: null, auth: 'none', scopes: [] });
  });

  test('a token in the private_token parameter is no credentials on a registry route', async () => {
    const res = await request(s.url).get(`/api/v4/packages/conan/v1/conans/search?q=x&private_token=${alice.tokens.api.token}`);
    expect(res.status).toBe(200);
    expect(res.body.ctx).toMatchObject({ user: null, auth: 'none' });
  });

  test('a registry JWT authenticates on registry routes only', async () => {
    const jwt = registryJwt(s.conanSecret, { access_token: alice.tokens.registry.id, user_id: alice.id, exp: Math.floor(Date.now() / 1000) + 600 });
    const reg = await request(s.url).get('/api/v4/packages/conan/v1/conans/search?q=x').set('Authorization', `Bearer ${jwt}`);
    expect(reg.body.ctx).toMatchObject({ user: { id: alice.id }, scopes: ['read_registry'], auth: 'jwt', token_id: alice.tokens.registry.id });
    const other = await request(s.url).get('/api/v4/todos').set('Authorization', `Bearer ${jwt}`);
    expect(other.status).toBe(401);
    expect(other.body).toEqual(BAD);
  });

  test.each([
    ['forged', (secret: string, c: Record<string, unknown>) => registryJwt(`${secret}x`, c), {}],
    ['expired', (secret: string, c: Record<string, unknown>) => registryJwt(secret, c), { exp: Math.floor(Date.now() / 1000) - 5 }],
    ['for another user', (secret: string, c: Record<string, unknown>) => registryJwt(secret, c), { user_id: 999999 }],
  ])('a %s registry JWT is treated as no credentials', async (_n, make, over) => {
    const jwt = make(s.conanSecret, { access_token: alice.tokens.registry.id, user_id: alice.id, exp: Math.floor(Date.now() / 1000) + 600, ...over });
    const res = await request(s.url).get('/api/v4/packages/conan/v1/conans/search?q=x').set('Authorization', `Bearer ${jwt}`);
    expect(res.status).toBe(200);
    expect(res.body.ctx).toMatchObject({ user: null, auth: 'none', scopes: [] });
  });
});

describe('refused tokens', () => {
  test('an unknown token: 401 invalid_token with WWW-Authenticate', async () => {
    const res = await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', 'glpat-nope');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(BAD);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="", error="invalid_token", error_description="Bad Access Token."');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  test('an expired token', async () => {
    const u = await createUser(s.url, s.adminToken, 'exp', { api: ['api'] });
    await s.identity.deps.db('personal_access_tokens').where({ id: u.tokens.api.id }).update({ expires_at: '2020-01-01' });
    const res = await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', u.tokens.api.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' });
  });

  test('a revoked token is refused at once when revoked through the gateway', async () => {
    const u = await createUser(s.url, s.adminToken, 'rev', { api: ['api'] });
    expect((await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', u.tokens.api.token)).status).toBe(200);
    await api(s.url, u.tokens.api.token, 'delete', '/personal_access_tokens/self', undefined, 204);
    const res = await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', u.tokens.api.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
  });
});

describe('scopes', () => {
  test('read_api reads but does not write', async () => {
    expect((await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.read.token)).status).toBe(200);
    expect((await request(s.url).head('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.read.token)).status).toBe(200);
    const res = await request(s.url).post('/api/v4/projects/import').set('PRIVATE-TOKEN', alice.tokens.read.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(SCOPE);
  });

  test('read_user reads users only', async () => {
    const me = await request(s.url).get('/api/v4/user').set('PRIVATE-TOKEN', alice.tokens.user.token);
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(alice.username);
    expect((await request(s.url).get('/api/v4/users').set('PRIVATE-TOKEN', alice.tokens.user.token)).status).toBe(200);
    const other = await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.user.token);
    expect(other.status).toBe(403);
    expect(other.body).toEqual(SCOPE);
  });

  test('registry routes pass scopes through', async () => {
    const res = await request(s.url).get('/api/v4/packages/conan/v1/conans/search?q=x').set('Authorization', basic(alice.username, alice.tokens.user.token));
    expect(res.status).toBe(200);
    expect(res.body.ctx.scopes).toEqual(['read_user']);
  });
});

describe('sudo', () => {
  test('an administrator token with the sudo scope acts as the user (header or parameter, id or username)', async () => {
    const byName = await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', sudoToken).set('Sudo', alice.username);
    expect(byName.body.ctx).toMatchObject({ user: { id: alice.id }, impersonator: root.id, auth: 'pat' });
    const byId = await request(s.url).get(`/api/v4/todos?sudo=${alice.id}`).set('PRIVATE-TOKEN', sudoToken);
    expect(byId.body.ctx).toMatchObject({ user: { id: alice.id }, impersonator: root.id });
    const me = await request(s.url).get('/api/v4/user').set('PRIVATE-TOKEN', sudoToken).set('Sudo', String(alice.id));
    expect(me.body.username).toBe(alice.username);
  });

  test.each([
    ['anonymous', () => ({}), 401, { message: '401 Unauthorized' }],
    ['not an administrator', () => ({ 'PRIVATE-TOKEN': alice.tokens.api.token }), 403, { message: '403 Forbidden - Must be admin to use sudo' }],
    ['no sudo scope', () => ({ 'PRIVATE-TOKEN': plainAdminToken }), 403, { ...SCOPE, scope: 'sudo' }],
  ])('refused: %s', async (_n, headers, status, body) => {
    const res = await request(s.url).get('/api/v4/todos').set(headers()).set('Sudo', alice.username);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  test('refused: an administrator\'s password on a registry route is no credentials, so sudo is 401', async () => {
    const pw = await createUser(s.url, s.adminToken, 'adm', {}, { admin: true });
    const res = await request(s.url).get('/api/v4/packages/conan/v1/ping?sudo=1').set('Authorization', basic(pw.username, pw.password));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  test('refused: unknown user', async () => {
    const res = await request(s.url).get('/api/v4/todos').set('PRIVATE-TOKEN', sudoToken).set('Sudo', 'nobody_here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 User with ID or username 'nobody_here' Not Found" });
  });
});

describe('identity outage', () => {
  test('identity unreachable: 502 for a request that needs it', async () => {
    const gw = await startTestGateway({ identity: `http://127.0.0.1:${await deadPort()}`, 'work-items': s.echoes['work-items'].url });
    try {
      const res = await request(gw.url).get('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.api.token);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ message: '502 Bad Gateway' });
    } finally {
      await gw.stop();
    }
  });
});
