import { hashToken } from '@anvil/auth';
import { bootService } from '@anvil/runtime';
import { identityService } from '../src';
import { hashPassword, verifyPassword } from '../src/users/passwords';
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

  /** Whether `password` is root's password now. */
  const rootPasswordIs = async (password: string) => verifyPassword(password, (await svc.deps.db('users').where({ username: 'root' }).first()).password_digest);

  it('sets root’s password from ADMIN_PASSWORD', async () => {
    expect(await rootPasswordIs('root-password-1')).toBe(true);
    expect(await rootPasswordIs('root-password-2')).toBe(false);
  });

  /** Starts identity again on the same schema with the same ADMIN_TOKEN and ADMIN_PASSWORD, then stops it. */
  async function restart(): Promise<void> {
    const env = { ...(svc.deps.config as Record<string, unknown>) } as Record<string, string>;
    const again = await bootService(identityService, {
      env: { DATABASE_URL: env.DATABASE_URL, AMQP_URL: 'memory://', GATEWAY_PUBLIC_KEY: env.GATEWAY_PUBLIC_KEY, INTERNAL_API_TOKEN: env.INTERNAL_API_TOKEN, LOG_LEVEL: 'silent', STORAGE_DIR: env.STORAGE_DIR, ADMIN_TOKEN, ADMIN_PASSWORD: 'root-password-1' },
      schema: svc.deps.schema,
      port: 0,
    });
    await again.stop();
  }

  it('on a restart keeps one root and one token, and never resets a changed password', async () => {
    const root = await svc.deps.db('users').where({ username: 'root' }).first();
    await svc.deps.db('users').where({ id: root.id }).update({ password_digest: await hashPassword('changed-password-2') });
    await restart();
    expect(await svc.deps.db('users').where({ username: 'root' })).toHaveLength(1);
    expect(await svc.deps.db('personal_access_tokens').where({ token_digest: hashToken(ADMIN_TOKEN) })).toHaveLength(1);
    expect(await rootPasswordIs('root-password-1')).toBe(false);
    expect(await rootPasswordIs('changed-password-2')).toBe(true);
  });

  it('on a restart never revives a revoked or expired bootstrap token', async () => {
    const { token_id } = (await internal(svc).post('/v1/tokens/resolve').send({ token: ADMIN_TOKEN }).expect(200)).body;
    await svc.deps.db('personal_access_tokens').where({ id: token_id }).update({ expires_at: '2000-01-01' });
    await restart();
    expect((await svc.deps.db('personal_access_tokens').where({ id: token_id }).first()).expires_at).not.toBeNull();
    await svc.deps.db('personal_access_tokens').where({ id: token_id }).update({ expires_at: null, revoked: true });
    await restart();
    expect(await svc.deps.db('personal_access_tokens').where({ id: token_id }).first()).toMatchObject({ revoked: true });
    expect(await svc.deps.db('personal_access_tokens').where({ token_digest: hashToken(ADMIN_TOKEN) })).toHaveLength(1);
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: ADMIN_TOKEN });
    expect(res.status).not.toBe(200);
  });
});
