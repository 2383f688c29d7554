import type { Knex } from 'knex';
import { AmqpBus, BusUnavailableError, EventEnvelope, OutboxRelay, emit, silentLogger } from '../src';
import { amqpUrl, sleep, testSchema, uid, waitFor } from './support/helpers';
import { TcpProxy, viaProxy } from './support/tcp-proxy';

describe('AmqpBus through a broker outage', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  let proxy: TcpProxy;
  const buses: AmqpBus[] = [];
  const fastBus = (url: string, opts = {}) => {
    const b = new AmqpBus(url, { logger: silentLogger, reconnectDelayMs: 50, maxReconnectDelayMs: 200, ...opts });
    buses.push(b);
    return b;
  };

  beforeAll(async () => {
    env = await testSchema();
    db = env.db;
    await db.schema.createTable('widgets', (t) => {
      t.increments('id');
      t.text('name');
    });
    const broker = new URL(amqpUrl());
    proxy = await new TcpProxy(broker.hostname, Number(broker.port || 5672)).listen();
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await proxy.close();
    await env.drop();
  });

  it('rejects publishes quickly when the broker cannot be reached, without crashing', async () => {
    const dead = await new TcpProxy('127.0.0.1', 1).listen();
    dead.down();
    const bus = fastBus(viaProxy(amqpUrl(), dead), { initialWaitMs: 200 });
    const event = { id: 'x', type: 'x.y.z', occurred_at: '', producer: 't', version: 1, data: null };
    const t0 = Date.now();
    await expect(bus.publish(event)).rejects.toBeInstanceOf(BusUnavailableError);
    expect(Date.now() - t0).toBeLessThan(1000);
    await expect(bus.ready(200)).rejects.toThrow(/not reachable/);
    await bus.close();
    await dead.close();
  });

  it('with the broker stopped the change still commits and the event arrives after the broker is back', async () => {
    const url = viaProxy(amqpUrl(), proxy);
    const consumer = fastBus(url);
    const publisher = fastBus(url);
    await Promise.all([consumer.ready(), publisher.ready()]);
    const queue = `evt.${uid()}.outage`;
    const type = `t${uid()}.widget.created`;
    const received: EventEnvelope[] = [];
    await consumer.subscribe(queue, [type], async (e) => void received.push(e));
    const relay = new OutboxRelay(db, publisher, { logger: silentLogger, pollMs: 100, minBackoffMs: 50, maxBackoffMs: 200 });
    relay.start();
    try {
      const before = await db.transaction((trx) => emit(trx, 'widgets-svc', type, { name: 'before' }));
      await waitFor(() => received.some((e) => e.id === before.id), 'the event before the outage');

      proxy.down();
      await waitFor(() => !publisher.connected && !consumer.connected, 'both buses to notice the outage');
      const t0 = Date.now();
      await expect(publisher.publish({ ...before, id: 'probe' })).rejects.toBeInstanceOf(BusUnavailableError);
      expect(Date.now() - t0).toBeLessThan(200);

      const during = await db.transaction(async (trx) => {
        await trx('widgets').insert({ name: 'during' });
        return emit(trx, 'widgets-svc', type, { name: 'during' });
      });
      await sleep(300);
      expect(await db('widgets').pluck('name')).toEqual(['during']);
      const row = await db('outbox').where({ event_id: during.id }).first();
      expect(row.published_at).toBeNull();
      expect(row.attempts).toBeGreaterThan(0);
      expect(received.some((e) => e.id === during.id)).toBe(false);

      proxy.up();
      await waitFor(() => received.some((e) => e.id === during.id), 'the event after the broker is back', 10_000);
      expect(received.find((e) => e.id === during.id)).toEqual(during);
      await waitFor(async () => (await db('outbox').where({ event_id: during.id }).first()).published_at, 'the row to be marked published');
    } finally {
      await relay.stop();
      await consumer.deleteQueue(queue);
    }
  });
});
