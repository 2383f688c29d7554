import { INTERNAL_TOKEN_HEADER } from '@anvil/auth';
import { TEST_INTERNAL_TOKEN } from '@anvil/testing';
import { CALLER_ROUTES, InternalCallers } from '../src/internal/callers';
import type { Actor } from '@anvil/auth';
import { Identity, makeProject, startIdentity } from './helpers';

const TOKENS = {
  gateway: 'gateway-internal-token-0001',
  registry: 'registry-internal-token-0001',
  pipelines: 'pipelines-internal-token-0001',
  'project-transfer': 'transfer-internal-token-0001',
};

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity({ INTERNAL_API_TOKENS: JSON.stringify(TOKENS) });
});
afterAll(async () => svc?.stop());

const as = (token: string) => ({
  get: (path: string) => svc.raw().get(`/internal${path}`).set(INTERNAL_TOKEN_HEADER, token),
  post: (path: string) => svc.raw().post(`/internal${path}`).set(INTERNAL_TOKEN_HEADER, token),
});

describe('identity’s internal API with a token per calling service', () => {
  it('answers the gateway’s sudo lookup, and refuses it to the registry with 403', async () => {
    const ok = await as(TOKENS.gateway).get('/v1/users/lookup?ref=root').expect(200);
    expect(ok.body).toMatchObject({ username: 'root', admin: true });
    const refused = await as(TOKENS.registry).get('/v1/users/lookup?ref=root').expect(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    await as(TOKENS.pipelines).get('/v1/users/lookup?ref=root').expect(403);
  });

  it('lets each caller reach the routes it uses, and only those', async () => {
    const root = (await as(TOKENS.gateway).get('/v1/users/lookup?ref=root').expect(200)).body as Actor;
    const project = await makeProject(svc, root);
    await as(TOKENS.registry).get(`/v1/projects/resolve?ref=${project.id}&user_id=${root.id}`).expect(200);
    await as(TOKENS.registry).get(`/v1/projects/readable?user_id=${root.id}`).expect(200);
    await as(TOKENS.pipelines).get(`/v1/projects/resolve?ref=${project.id}&user_id=${root.id}`).expect(200);
    await as(TOKENS.pipelines).get(`/v1/projects/readable?user_id=${root.id}`).expect(403);
    await as(TOKENS['project-transfer']).get(`/v1/transfer/projects/${project.id}`).expect(200);
    await as(TOKENS.gateway).get(`/v1/transfer/projects/${project.id}`).expect(403);
    await as(TOKENS.registry).post('/v1/transfer/users/by-email').send({ emails: ['x@example.com'] }).expect(403);
  });

  it('refuses the shared token, an unknown token and none with 401 once callers have their own', async () => {
    for (const token of [TEST_INTERNAL_TOKEN, 'someone-elses-token-0001', '']) {
      const res = await as(token).get('/v1/users/lookup?ref=root').expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
  });

  it('has no password-check route any more', async () => {
    await as(TOKENS.gateway).post('/v1/users/authenticate').send({ login: 'root', password: 'x' }).expect(403);
    await svc.raw().post('/internal/v1/users/authenticate').set(INTERNAL_TOKEN_HEADER, TOKENS.gateway).send({}).expect(403);
    expect(Object.values(CALLER_ROUTES).flat().some((r) => r.includes('authenticate'))).toBe(false);
  });
});

describe('INTERNAL_API_TOKENS', () => {
  it('must be a JSON object of known callers with distinct, real tokens', () => {
    expect(() => new InternalCallers(TEST_INTERNAL_TOKEN, '[1]')).toThrow(/JSON object/);
    expect(() => new InternalCallers(TEST_INTERNAL_TOKEN, 'nope')).toThrow(/JSON object/);
    expect(() => new InternalCallers(TEST_INTERNAL_TOKEN, JSON.stringify({ alerting: 'alerting-token-000001' }))).toThrow(/unknown caller "alerting"/);
    expect(() => new InternalCallers(TEST_INTERNAL_TOKEN, JSON.stringify({ gateway: 'short' }))).toThrow(/16 characters/);
    expect(() => new InternalCallers(TEST_INTERNAL_TOKEN, JSON.stringify({ gateway: 'same-token-for-both', registry: 'same-token-for-both' }))).toThrow(/its own token/);
  });
});
