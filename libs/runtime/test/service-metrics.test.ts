import { randomUUID } from 'node:crypto';
import { consumeOnce, emit, outboxTables } from '@anvil/events';
import { actor, startService, type TestService } from '@anvil/testing';
import { amqpUrl as testAmqpUrl } from '../../events/test/support/helpers';
import { serviceApp, type ServiceDefinition } from '../src';
import { TcpProxy, viaProxy } from '../../events/test/support/tcp-proxy';

/** A service that emits `<prefix>.thing.created` on POST /api/v4/things and consumes it into `seen`. */
function definition(prefix: string): ServiceDefinition {
  const type = `${prefix}.thing.created`;
  return {
    name: 'metrics-probe',
    defaultPort: 0,
    migrations: [
      {
        name: '20200101000000_create',
        up: async (knex) => {
          await outboxTables(knex);
          await knex.schema.createTable('seen', (t) => t.uuid('event_id').primary());
        },
        down: async () => undefined,
      },
    ],
    createApp: (deps) =>
      serviceApp(deps, {
        api: (r) =>
          r.post('/things', async (_req, res) => {
            await deps.db.transaction((trx) => emit(trx, 'metrics-probe', type, { id: randomUUID() }));
            res.status(201).json({ ok: true });
          }),
      }),
    consumers: (deps) => [
      {
        queue: 'metrics-probe.things',
        patterns: [type],
        handler: async (event) => {
          await consumeOnce(deps.db, 'metrics-probe.things', event, async (trx) => {
            await trx('seen').insert({ event_id: event.id });
          });
        },
      },
    ],
  };
}

/** The value of the first series of `name` whose labels include every `labels` pair, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}

async function until<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const me = actor('metrics-user');

describe("a service's /metrics", () => {
  let svc: TestService;
  const prefix = `mp${Math.random().toString(36).slice(2, 8)}`;
  const metrics = async () => (await svc.raw().get('/metrics').expect(200)).text;

  beforeAll(async () => {
    svc = await startService(definition(prefix));
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('shows the request histogram and the event counters move after a request and its event', async () => {
    const before = await metrics();
    expect(sample(before, 'anvil_events_published_total', { type: `${prefix}.thing.created` })).toBeUndefined();
    expect(sample(before, 'anvil_outbox_unpublished', { service: 'metrics-probe' })).toBe(0);
    expect(sample(before, 'anvil_inbox_events')).toBe(0);
    await svc.as({ user: me }).post('/api/v4/things').expect(201);
    const queue = `${svc.deps.schema}.metrics-probe.things`;
    const text = await until(async () => {
      const t = await metrics();
      return sample(t, 'anvil_events_consumed_total', { queue, outcome: 'ok' }) === 1 && t;
    }, 'the consumed counter');
    expect(sample(text, 'anvil_events_published_total', { type: `${prefix}.thing.created`, service: 'metrics-probe' })).toBe(1);
    expect(sample(text, 'anvil_inbox_events')).toBe(1);
    expect(sample(text, 'anvil_outbox_unpublished')).toBe(0);
    expect(sample(text, 'anvil_outbox_lag_seconds')).toBe(0);
    expect(sample(text, 'anvil_events_dead_letters', { queue })).toBe(0);
    expect(sample(text, 'anvil_events_redeliveries_total', { queue })).toBeUndefined();
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'POST', le: '+Inf' })).toBe(1);
  });
});

describe('outbox lag while the broker is unreachable', () => {
  let svc: TestService;
  let proxy: TcpProxy;
  const prefix = `ml${Math.random().toString(36).slice(2, 8)}`;
  const metrics = async () => (await svc.raw().get('/metrics').expect(200)).text;

  beforeAll(async () => {
    const broker = new URL(testAmqpUrl());
    proxy = await new TcpProxy(broker.hostname, Number(broker.port || 5672)).listen();
    proxy.down();
    svc = await startService(definition(prefix), { env: { AMQP_URL: viaProxy(testAmqpUrl(), proxy) } });
  }, 60_000);
  afterAll(async () => {
    if (svc) {
      await svc.deps.metrics.consumedQueues.reduce(async (p, q) => {
        await p;
        await (svc.deps.bus as unknown as { deleteQueue(q: string): Promise<void> }).deleteQueue(q).catch(() => undefined);
      }, Promise.resolve());
      await svc.stop();
    }
    await proxy?.close();
  });

  it('is above 0 with the unpublished row counted, and 0 once the relay reaches the broker', async () => {
    await svc.as({ user: me }).post('/api/v4/things').expect(201);
    await new Promise((r) => setTimeout(r, 1100));
    const down = await metrics();
    expect(sample(down, 'anvil_outbox_unpublished')).toBe(1);
    expect(sample(down, 'anvil_outbox_lag_seconds')).toBeGreaterThan(1);
    proxy.up();
    const up = await until(async () => {
      const t = await metrics();
      return sample(t, 'anvil_outbox_unpublished') === 0 && t;
    }, 'the relay to publish');
    expect(sample(up, 'anvil_outbox_lag_seconds')).toBe(0);
    expect(sample(up, 'anvil_events_published_total', { type: `${prefix}.thing.created` })).toBe(1);
  }, 60_000);
});
