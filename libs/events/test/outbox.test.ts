import type { Knex } from 'knex';
import { EventBus, EventEnvelope, InMemoryBus, OutboxRelay, emit, pruneOutbox, silentLogger } from '../src';
import { sleep, testSchema, waitFor } from './support/helpers';

/** A real in-process bus that counts publishes and can be made to refuse some. */
class CountingBus implements EventBus {
  readonly published: EventEnvelope[] = [];
  refuse: (e: EventEnvelope) => boolean = () => false;
  constructor(
    private readonly inner: EventBus,
    private readonly delayMs = 0,
  ) {}
  async publish(e: EventEnvelope): Promise<void> {
    if (this.delayMs) await sleep(this.delayMs);
    if (this.refuse(e)) throw new Error('broker unavailable');
    await this.inner.publish(e);
    this.published.push(e);
  }
  subscribe: EventBus['subscribe'] = (...args) => this.inner.subscribe(...args);
  close = () => this.inner.close();
}

describe('transactional outbox', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  let bus: InMemoryBus;
  let received: EventEnvelope[];
  const relays: OutboxRelay[] = [];
  const relay = (b: EventBus, opts = {}) => {
    const r = new OutboxRelay(db, b, { logger: silentLogger, ...opts });
    relays.push(r);
    return r;
  };

  beforeAll(async () => {
    env = await testSchema();
    db = env.db;
    await db.schema.createTable('widgets', (t) => {
      t.increments('id');
      t.text('name');
    });
  });
  beforeEach(async () => {
    await db.raw('TRUNCATE outbox, widgets');
    bus = new InMemoryBus();
    received = [];
    await bus.subscribe('test.widgets', ['widgets.#'], async (e) => void received.push(e));
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await bus.close();
  });
  afterAll(async () => {
    await env.drop();
  });

  it('writes the event row in the same transaction as the change', async () => {
    const trx = await db.transaction();
    await trx('widgets').insert({ name: 'w1' });
    const e = await emit(trx, 'widgets-svc', 'widgets.widget.created', { name: 'w1' });
    expect(await db('outbox').count({ n: '*' })).toEqual([{ n: '0' }]);
    await trx.commit();
    const rows = await db('outbox').select('*');
    expect(rows).toEqual([
      expect.objectContaining({ event_id: e.id, type: 'widgets.widget.created', producer: 'widgets-svc', version: 1, data: { name: 'w1' }, published_at: null, attempts: 0 }),
    ]);
    expect(new Date(rows[0].occurred_at).toISOString()).toBe(e.occurred_at);
    expect(e).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'widgets.widget.created', occurred_at: expect.any(String), producer: 'widgets-svc', version: 1, data: { name: 'w1' } });
  });

  it('publishes nothing for a rolled-back transaction', async () => {
    await expect(
      db.transaction(async (trx) => {
        await trx('widgets').insert({ name: 'gone' });
        await emit(trx, 'widgets-svc', 'widgets.widget.created', { name: 'gone' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await db.transaction((trx) => emit(trx, 'widgets-svc', 'widgets.widget.created', { name: 'kept' }, 2));
    expect(await relay(bus).flushOnce()).toBe(1);
    await waitFor(() => received.length === 1, 'the committed event');
    await sleep(30);
    expect(received.map((e) => [e.data, e.version])).toEqual([[{ name: 'kept' }, 2]]);
    expect(await db('widgets').count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('relays in id order and marks rows published', async () => {
    const sent = await db.transaction(async (trx) => [
      await emit(trx, 'widgets-svc', 'widgets.widget.created', { n: 1 }),
      await emit(trx, 'widgets-svc', 'widgets.widget.updated', { n: 2 }),
      await emit(trx, 'widgets-svc', 'widgets.widget.deleted', { n: 3 }),
    ]);
    expect(await relay(bus).flushOnce()).toBe(3);
    await waitFor(() => received.length === 3, 'three events');
    expect(received).toEqual(sent);
    const rows = await db('outbox').orderBy('id');
    expect(rows.map((r) => [r.event_id, r.published_at instanceof Date, r.attempts])).toEqual(sent.map((e) => [e.id, true, 1]));
    expect(await relay(bus).flushOnce()).toBe(0);
  });

  it('leaves rows whose publish failed for a later round', async () => {
    const flaky = new CountingBus(bus);
    flaky.refuse = (e) => (e.data as { n: number }).n === 2;
    await db.transaction(async (trx) => {
      for (const n of [1, 2, 3]) await emit(trx, 'widgets-svc', 'widgets.widget.created', { n });
    });
    const r = relay(flaky);
    expect(await r.flushOnce()).toBe(2);
    const pending = await db('outbox').whereNull('published_at');
    expect(pending.map((row) => [row.data, row.attempts, row.last_error])).toEqual([[{ n: 2 }, 1, 'broker unavailable']]);
    flaky.refuse = () => false;
    expect(await r.flushOnce()).toBe(1);
    await waitFor(() => received.length === 3, 'all three events');
    expect(await db('outbox').whereNull('published_at')).toEqual([]);
  });

  it('relays a committed event within milliseconds of commit through LISTEN/NOTIFY (no polling)', async () => {
    relay(bus, { pollMs: 60_000 }).start();
    await sleep(200); // let the first pass and LISTEN settle
    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      await db.transaction((trx) => emit(trx, 'widgets-svc', 'widgets.widget.created', { i }));
      const committed = Date.now();
      await waitFor(() => received.length === i + 1, 'the notified event', 2000, 1);
      latencies.push(Date.now() - committed);
    }
    // Typically 1-5 ms; the bounds leave room for a loaded CI machine (the poll alone would take 60 s).
    expect(Math.min(...latencies)).toBeLessThan(100);
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it('never publishes a row twice with two relays in parallel (SKIP LOCKED)', async () => {
    const ids = await db.transaction(async (trx) => {
      const out: string[] = [];
      for (let n = 0; n < 200; n++) out.push((await emit(trx, 'widgets-svc', 'widgets.widget.created', { n })).id);
      return out;
    });
    const a = new CountingBus(bus, 1);
    const b = new CountingBus(bus, 1);
    const ra = relay(a, { batchSize: 10 });
    const rb = relay(b, { batchSize: 10 });
    const counts = await Promise.all([ra.flushOnce(), rb.flushOnce(), ra.flushOnce(), rb.flushOnce()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(200);
    const all = [...a.published, ...b.published].map((e) => e.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...ids].sort());
    expect(a.published.length).toBeGreaterThan(0);
    expect(b.published.length).toBeGreaterThan(0);
    expect(await db('outbox').whereNull('published_at')).toEqual([]);
  });

  it('prunes published rows older than the cut-off and keeps unpublished ones', async () => {
    await db.transaction(async (trx) => {
      for (const n of [1, 2, 3]) await emit(trx, 'widgets-svc', 'widgets.widget.created', { n });
    });
    const rows = await db('outbox').orderBy('id');
    await db('outbox').where('id', rows[0].id).update({ published_at: db.raw("now() - interval '2 days'") });
    await db('outbox').where('id', rows[1].id).update({ published_at: db.fn.now() });
    expect(await pruneOutbox(db, 24 * 3600 * 1000)).toBe(1);
    expect((await db('outbox').orderBy('id')).map((r) => r.data)).toEqual([{ n: 2 }, { n: 3 }]);
  });
});
