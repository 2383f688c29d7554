import { INTERNAL_TOKEN_HEADER } from '@anvil/auth';
import { loginUrl } from '@anvil/db';
import { identityService } from '@anvil/identity';
import { pipelinesService } from '@anvil/pipelines';
import { newPipeline, newRunner } from '../../services/pipelines/test/runner-api/helpers';
import { actor, type PgBouncer, startPgBouncer, startService, TEST_INTERNAL_TOKEN, testDatabaseUrl, testPassword, type TestService, uniqueName } from '@anvil/testing';

/**
 * A service behind a private PgBouncer in transaction pooling mode (`DB_PGBOUNCER=true`): its
 * routes work with several server connections shared per transaction (a named prepared statement
 * would meet a server connection that never prepared it), and the login's settings apply without
 * any SET on connect.
 */
describe('identity through PgBouncer (transaction pooling)', () => {
  const login = { user: uniqueName('identity'), password: testPassword() };
  let bouncer: PgBouncer;
  let identity: TestService;
  beforeAll(async () => {
    bouncer = await startPgBouncer(testDatabaseUrl(), [login], { poolSize: 3 });
    identity = await startService(identityService, {
      schema: login.user,
      password: login.password,
      env: { DATABASE_URL: bouncer.urlFor(login), DB_PGBOUNCER: 'true', DATABASE_DIRECT_URL: loginUrl(testDatabaseUrl(), login.user, login.password), ADMIN_TOKEN: 'glpat-pgbouncer-admin-token-00001' },
    });
  });
  afterAll(async () => {
    await identity?.stop();
    await bouncer?.stop();
  });

  const internal = (path: string) => identity.raw().post(`/internal${path}`).set(INTERNAL_TOKEN_HEADER, TEST_INTERNAL_TOKEN);

  it('creates a user and a token for it, and resolves the token under concurrent load', async () => {
    const root = await identity.deps.db('users').where({ username: 'root' }).first();
    const admin = actor('root', { id: root.id, admin: true });
    const user = await identity.as({ user: admin }).post('/api/v4/users').send({ username: 'bounced', name: 'Bounced', email: 'bounced@example.com', password: 'bounced-password-1' }).expect(201);
    expect(user.body).toMatchObject({ username: 'bounced', state: 'active' });
    const token = await identity.as({ user: admin }).post(`/api/v4/users/${user.body.id}/personal_access_tokens`).send({ name: 'ci', scopes: ['api'] }).expect(201);
    expect(token.body.token).toMatch(/^glpat-/);

    // the token lookup is a prepared statement on a hot path: many at once over 3 server connections
    const answers = await Promise.all(Array.from({ length: 60 }, () => internal('/v1/tokens/resolve').send({ token: token.body.token })));
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expect(answers[0].body).toMatchObject({ user: { username: 'bounced' }, scopes: ['api'] });
    const users = await Promise.all(Array.from({ length: 30 }, () => identity.as({ user: admin }).get('/api/v4/users?username=bounced')));
    expect(users.map((u) => [u.status, u.body.length])).toEqual(Array(30).fill([200, 1]));
  });

  it('went through the bouncer, and the login carries its settings (no SET on connect)', async () => {
    const db = (await bouncer.stats()).find((s) => s.database === 'postgres');
    expect(Number(db?.total_xact_count)).toBeGreaterThan(90);
    const r = await identity.deps.db.raw("SELECT current_user AS cu, current_setting('search_path') AS sp, current_setting('max_parallel_workers_per_gather') AS mp");
    expect({ ...r.rows[0], sp: r.rows[0].sp.replace(/"/g, '') }).toEqual({ cu: login.user, sp: login.user, mp: '0' });
  });
});

describe('pipelines through PgBouncer, the runner wake-up on the direct URL', () => {
  const login = { user: uniqueName('pipelines'), password: testPassword() };
  let bouncer: PgBouncer;
  let pipelines: TestService;
  beforeAll(async () => {
    bouncer = await startPgBouncer(testDatabaseUrl(), [login], { poolSize: 3 });
    pipelines = await startService(pipelinesService, {
      schema: login.user,
      password: login.password,
      env: { DATABASE_URL: bouncer.urlFor(login), DB_PGBOUNCER: 'true', DATABASE_DIRECT_URL: loginUrl(testDatabaseUrl(), login.user, login.password), RUNNER_LONG_POLL_MS: '4000' },
    });
  });
  afterAll(async () => {
    await pipelines?.stop();
    await bouncer?.stop();
  });

  it('holds a runner\'s long poll until a job becomes pending, then assigns it', async () => {
    const request = (body: Record<string, unknown>) => pipelines.as({}).post('/api/v4/jobs/request').send(body);
    const { token } = await newRunner(pipelines, { runner_type: 'instance_type', tag_list: ['bounced'], run_untagged: false });
    const first = await request({ token }).expect(204);
    const started = Date.now();
    const held = request({ token, last_update: first.headers['x-gitlab-last-update'] });
    setTimeout(() => void newPipeline(pipelines, 901, [['late', 'build', 0, { tags: ['bounced'] }]]), 300);
    const r = await held.expect(201);
    expect(r.body.job_info.name).toBe('late');
    expect(Date.now() - started).toBeLessThan(3000);
    // the LISTEN is held on Postgres by the login itself, beside the bouncer's connections
    const listening = await pipelines.deps.directDb.raw("SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = current_user AND query ILIKE 'LISTEN%'");
    expect(listening.rows[0].n).toBeGreaterThanOrEqual(1);
    const db = (await bouncer.stats()).find((s) => s.database === 'postgres');
    expect(Number(db?.total_xact_count)).toBeGreaterThan(0);
  });
});
