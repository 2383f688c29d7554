import { loadConfig, serviceSchema, type Schema } from '@anvil/config';
import { configSchema as alerting } from '@anvil/alerting';
import { configSchema as identity } from '@anvil/identity';
import { configSchema as pipelines } from '@anvil/pipelines';
import { configSchema as projectTransfer } from '@anvil/project-transfer';
import { configSchema as registry } from '@anvil/registry';
import { configSchema as workItems } from '@anvil/work-items';
import { createDb, type Knex } from '@anvil/db';
import { DB_CONNECTION_BUDGET } from '@anvil/runtime';
import { type Fleet, SERVICE_NAMES, startFleet, testDatabaseUrl } from '@anvil/testing';

const SCHEMAS: Record<string, Schema> = { identity, registry, 'project-transfer': projectTransfer, 'work-items': workItems, pipelines, alerting };
const poolMax = (service: string) => (loadConfig({ ...serviceSchema, ...SCHEMAS[service] }, {}) as { DB_POOL_MAX: number }).DB_POOL_MAX;

/**
 * Two replicas of every service at their default pool sizes, under a burst on every replica: each
 * service's login holds at most 2 × its DB_POOL_MAX connections, and all of them together stay
 * within max_connections less the reserve.
 */
describe('connections per login under a burst, two replicas of every service', () => {
  let fleet: Fleet;
  let admin: Knex;
  beforeAll(async () => {
    fleet = await startFleet({ replicas: Object.fromEntries(SERVICE_NAMES.map((n) => [n, 2])) });
    admin = createDb({ url: testDatabaseUrl(), schema: 'public', role: false, pool: { min: 0, max: 1 } });
  }, 300_000);
  afterAll(async () => {
    await admin?.destroy();
    await fleet?.stop();
  });

  it('stays within each login’s budget and the total', async () => {
    const logins = Object.values(fleet.schemas);
    const peak: Record<string, number> = {};
    let peakTotal = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const r = await admin.raw('SELECT usename, count(*)::int AS n FROM pg_stat_activity WHERE usename = ANY(?) GROUP BY usename', [logins]);
        let total = 0;
        for (const row of r.rows as Array<{ usename: string; n: number }>) {
          peak[row.usename] = Math.max(peak[row.usename] ?? 0, row.n);
          total += row.n;
        }
        peakTotal = Math.max(peakTotal, total);
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const headers = { 'PRIVATE-TOKEN': fleet.adminToken };
    // readiness runs a query on the process's own pool: 60 at once on every replica
    const answers = await Promise.all(Object.values(fleet.replicas).flat().flatMap((p) => Array.from({ length: 60 }, () => fetch(`${p.url}/-/readiness`))));
    // then API reads through the gateway, eight at a time
    for (let i = 0; i < 5; i++) {
      answers.push(...(await Promise.all(['projects', 'user', 'issues', 'groups', 'projects', 'user', 'issues', 'groups'].map((r) => fetch(`${fleet.url}/api/v4/${r}`, { headers })))));
    }
    sampling = false;
    await sampler;
    const failed = await Promise.all(answers.filter((a) => a.status !== 200).map(async (a) => `${a.status} ${a.url} ${await a.text()}`));
    expect(failed).toEqual([]);
    for (const [service, schema] of Object.entries(fleet.schemas)) {
      // the burst reached every login, and none went beyond its two replicas' pools
      expect([service, peak[schema] ?? 0]).toEqual([service, expect.any(Number)]);
      expect(peak[schema]).toBeGreaterThanOrEqual(2);
      expect(peak[schema]).toBeLessThanOrEqual(2 * poolMax(service));
    }
    expect(peakTotal).toBeLessThanOrEqual(DB_CONNECTION_BUDGET.maxConnections - DB_CONNECTION_BUDGET.reserved);
  }, 120_000);
});
