import request from 'supertest';
import { createDb, dropSchema, provisionService } from '@anvil/db';
import { testDatabaseUrl, testPassword, uniqueName } from '@anvil/testing';
import type { RunningGateway } from '@anvil/gateway';
import { api, createUser, TestUser } from '../../gateway/test/support/fixtures';
import { startTestGateway } from '../../gateway/test/support/gateway';
import { CrossingProxy, startCrossingProxy } from './support/crossing-proxy';
import { Stack, startStack } from './support/gateway-stack';

let s: Stack;
let alice: TestUser;
/** Counts every request that reaches identity (both "replicas" are the same identity). */
let counting: CrossingProxy;
const schemas: string[] = [];
const gateways: RunningGateway[] = [];

beforeAll(async () => {
  s = await startStack();
  alice = await createUser(s.url, s.adminToken, 'alice', { api: ['api'] });
  counting = await startCrossingProxy();
  counting.targets = [s.identity.url, s.identity.url];
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await counting?.stop();
  await s?.stop();
  for (const schema of schemas) await dropSchema({ url: testDatabaseUrl(), schema });
});

/** Gateways sharing one limits schema, in front of identity (through the counting proxy) and the echoes. */
async function replicas(n: number, env: Record<string, string>): Promise<{ gws: RunningGateway[]; schema: string }> {
  const schema = uniqueName('gw_limits');
  schemas.push(schema);
  const gws: RunningGateway[] = [];
  for (let i = 0; i < n; i++) {
    const gw = await startTestGateway(
      { identity: counting.url, 'work-items': s.echoes['work-items'].url },
      { DATABASE_URL: testDatabaseUrl(), RATE_LIMIT_SCHEMA: schema, ...env },
    );
    gws.push(gw);
    gateways.push(gw);
  }
  return { gws, schema };
}

const lookups = () => counting.log.filter((c) => c.path.startsWith('/internal/')).length;

describe('throttle_unauthenticated_api', () => {
  const on = { THROTTLE_UNAUTHENTICATED_API_ENABLED: 'true', THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD: '4', THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS: '60' };

  test('two replicas share the limit: Rack::Attack 429 with its headers once the address used it up', async () => {
    const { gws: [a, b] } = await replicas(2, on);
    for (const gw of [a, b, a, b]) expect((await request(gw.url).get('/api/v4/todos')).status).toBe(200);
    for (const gw of [a, b]) {
      const res = await request(gw.url).get('/api/v4/todos');
      expect(res.status).toBe(429);
      expect(res.text).toBe('Retry later\n');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(res.headers).toMatchObject({ 'ratelimit-name': 'throttle_unauthenticated_api', 'ratelimit-limit': '4', 'ratelimit-remaining': '0' });
      expect(Number(res.headers['ratelimit-observed'])).toBeGreaterThanOrEqual(5);
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      expect(new Date(res.headers['ratelimit-resettime']).getTime()).toBeGreaterThan(Date.now() - 1000);
    }
    // an authenticated caller is not counted against the address (its own throttle is off)
    expect((await request(a.url).get('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.api.token)).status).toBe(200);
  });

  test('through the trusted (loopback) proxy each X-Forwarded-For client has its own count', async () => {
    const { gws: [gw] } = await replicas(1, on);
    for (let i = 0; i < 4; i++) expect((await request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', '203.0.113.7')).status).toBe(200);
    expect((await request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', '203.0.113.7')).status).toBe(429);
    // the rightmost untrusted address is the client: a spoofed left part changes nothing
    expect((await request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', '198.51.100.1, 203.0.113.7')).status).toBe(429);
    expect((await request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', '203.0.113.8')).status).toBe(200);
  });

  test('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
    const { gws: [gw] } = await replicas(1, { ...on, TRUSTED_PROXIES: '10.0.0.0/8' });
    for (let i = 0; i < 4; i++) expect((await request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', `203.0.113.${i}`)).status).toBe(200);
    const res = await request(gw.url).get('/api/v4/todos').set('X-Forwarded-For', '203.0.113.99');
    expect(res.status).toBe(429);
  });

  test('a failing limits table does not fail requests: the per-process insurance answers', async () => {
    const { gws: [gw], schema } = await replicas(1, on);
    const db = createDb({ url: testDatabaseUrl(), schema, role: false });
    try {
      await db.raw(`DROP TABLE "${schema}".rate_limits`);
    } finally {
      await db.destroy();
    }
    for (let i = 0; i < 4; i++) expect((await request(gw.url).get('/api/v4/todos')).status).toBe(200);
    expect((await request(gw.url).get('/api/v4/todos')).status).toBe(429);
  });
});

describe('throttle_authenticated_api', () => {
  test('per user across replicas', async () => {
    const { gws: [a, b] } = await replicas(2, { THROTTLE_AUTHENTICATED_API_ENABLED: 'true', THROTTLE_AUTHENTICATED_API_REQUESTS_PER_PERIOD: '2', THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS: '60' });
    const as = (gw: RunningGateway) => request(gw.url).get('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.api.token);
    expect((await as(a)).status).toBe(200);
    expect((await as(b)).status).toBe(200);
    const res = await as(a);
    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({ 'ratelimit-name': 'throttle_authenticated_api', 'ratelimit-limit': '2' });
    // anonymous callers are not throttled by it
    expect((await request(b.url).get('/api/v4/todos')).status).toBe(200);
  });
});

describe('failed-authentication ban', () => {
  test('a flood of bad tokens is cut off before identity is asked; other addresses are not banned', async () => {
    const { gws: [a, b] } = await replicas(2, { FAILED_AUTH_BAN_ENABLED: 'true', FAILED_AUTH_BAN_MAX_RETRY: '3', FAILED_AUTH_BAN_FIND_TIME_SECONDS: '60', FAILED_AUTH_BAN_TIME_SECONDS: '3600' });
    const from = '192.0.2.50';
    const before = lookups();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await request((i % 2 ? b : a).url).get('/api/v4/todos').set('PRIVATE-TOKEN', `glpat-bad-${i}-${Math.random()}`).set('X-Forwarded-For', from);
      statuses.push(res.status);
      if (res.status === 403) expect(res.text).toBe('Forbidden\n');
    }
    // GitLab's Allow2Ban: the third failure bans the address
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual(Array(17).fill(403));
    expect(lookups() - before).toBe(3);
    // banned: even a good token from there is refused, without a lookup
    const good = await request(a.url).get('/api/v4/todos').set('PRIVATE-TOKEN', alice.tokens.api.token).set('X-Forwarded-For', from);
    expect(good.status).toBe(403);
    expect(lookups() - before).toBe(3);
    // another address still gets identity's answer
    const other = await request(b.url).get('/api/v4/todos').set('PRIVATE-TOKEN', 'glpat-bad-other').set('X-Forwarded-For', '192.0.2.51');
    expect(other.status).toBe(401);
    expect(lookups() - before).toBe(4);
  });
});

describe("the gateway's own database login", () => {
  test('a gateway connecting as its provisioned login creates its table in its schema and enforces a throttle', async () => {
    const schema = uniqueName('gateway');
    schemas.push(schema);
    const login = await provisionService({ adminUrl: testDatabaseUrl(), schema, password: testPassword() });
    expect(new URL(login).username).toBe(schema);
    const gw = await startTestGateway(
      { identity: counting.url, 'work-items': s.echoes['work-items'].url },
      { DATABASE_URL: login, RATE_LIMIT_SCHEMA: schema, THROTTLE_UNAUTHENTICATED_API_ENABLED: 'true', THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD: '2', THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS: '60' },
    );
    gateways.push(gw);
    for (let i = 0; i < 2; i++) expect((await request(gw.url).get('/api/v4/todos')).status).toBe(200);
    const res = await request(gw.url).get('/api/v4/todos');
    expect(res.status).toBe(429);
    expect(res.text).toBe('Retry later\n');
    expect(res.headers['ratelimit-name']).toBe('throttle_unauthenticated_api');
    // the table is the login's, in its own schema, and holds the address's count
    const admin = createDb({ url: testDatabaseUrl(), schema, role: false });
    try {
      const owner = await admin.raw('SELECT tableowner FROM pg_tables WHERE schemaname = ? AND tablename = ?', [schema, 'rate_limits']);
      expect(owner.rows).toEqual([{ tableowner: schema }]);
      const rows = await admin.raw(`SELECT key, points FROM "${schema}".rate_limits`);
      expect(rows.rows).toEqual([expect.objectContaining({ points: 3 })]);
    } finally {
      await admin.destroy();
    }
  });

  test("a login whose schema was never provisioned is refused at start, naming the provisioning step", async () => {
    const schema = uniqueName('gateway');
    schemas.push(schema);
    const login = await provisionService({ adminUrl: testDatabaseUrl(), schema, password: testPassword() });
    const other = uniqueName('gw_missing');
    await expect(
      startTestGateway({ identity: counting.url }, { DATABASE_URL: login, RATE_LIMIT_SCHEMA: other, THROTTLE_UNAUTHENTICATED_API_ENABLED: 'true' }),
    ).rejects.toThrow(/provision the gateway's login/);
  });
});

test('limits are off by default: no table, no 429', async () => {
  const gw = await startTestGateway({ identity: counting.url, 'work-items': s.echoes['work-items'].url });
  gateways.push(gw);
  for (let i = 0; i < 30; i++) expect((await request(gw.url).get('/api/v4/todos')).status).toBe(200);
  await api(gw.url, alice.tokens.api.token, 'get', '/todos');
});
