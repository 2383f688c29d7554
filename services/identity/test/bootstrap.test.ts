import { hashToken } from '@anvil/auth';
import { bootService } from '@anvil/runtime';
import { identityService } from '../src';
import { events, Identity, internal, startIdentity } from './helpers';

const ADMIN_TOKEN = 'glpat-bootstrap-test-token-0001';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity({ ADMIN_TOKEN, ADMIN_PASSWORD: 'root-password-1' });
});
afterAll(async () => svc?.stop());

describe('service start', () => {
  it('creates the administrator root once, with a user.created event', async () => {
    const rows = await svc.deps.db('users').where({ username: 'root' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Administrator', email: 'admin@example.com', admin: true, state: 'active' });
    expect(await events(svc, 'identity.user.created', { username: 'root' })).toHaveLength(1);
  });

  it('stores ADMIN_TOKEN only as a digest of a non-expiring api+sudo+admin_mode token of root', async () => {
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: ADMIN_TOKEN }).expect(200);
    expect(res.body).toMatchObject({ user: { username: 'root', admin: true }, scopes: ['api', 'sudo', 'admin_mode'], expires_at: null });
    const row = await svc.deps.db('personal_access_tokens').where({ id: res.body.token_id }).first();
    expect(row.token_digest).toBe(hashToken(ADMIN_TOKEN));
  });

  it('sets root’s password from ADMIN_PASSWORD', async () => {
    const res = await internal(svc).post('/v1/users/authenticate').send({ login: 'root', password: 'root-password-1' }).expect(200);
    expect(res.body).toMatchObject({ username: 'root', admin: true });
  });

  it('on a restart keeps one root and one token, and restores a revoked bootstrap token', async () => {
    const { token_id } = (await internal(svc).post('/v1/tokens/resolve').send({ token: ADMIN_TOKEN }).expect(200)).body;
    await svc.deps.db('personal_access_tokens').where({ id: token_id }).update({ revoked: true });
    const env = { ...(svc.deps.config as Record<string, unknown>) } as Record<string, string>;
    const again = await bootService(identityService, {
      env: { DATABASE_URL: env.DATABASE_URL, AMQP_URL: 'memory://', GATEWAY_PUBLIC_KEY: env.GATEWAY_PUBLIC_KEY, INTERNAL_API_TOKEN: env.INTERNAL_API_TOKEN, LOG_LEVEL: 'silent', STORAGE_DIR: env.STORAGE_DIR, ADMIN_TOKEN },
      schema: svc.deps.schema,
      port: 0,
    });
    await again.stop();
    expect(await svc.deps.db('users').where({ username: 'root' })).toHaveLength(1);
    expect(await svc.deps.db('personal_access_tokens').where({ token_digest: hashToken(ADMIN_TOKEN) })).toHaveLength(1);
    await internal(svc).post('/v1/tokens/resolve').send({ token: ADMIN_TOKEN }).expect(200);
  });
});
