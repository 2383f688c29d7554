import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { consumeOnce, pruneInbox } from '../src';
import { testSchema } from './support/helpers';

describe('consumeOnce (inbox)', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  const bump = (trx: Knex.Transaction) => trx('counters').where({ name: 'c' }).increment('n', 1).then(() => undefined);
  const count = async () => (await db('counters').where({ name: 'c' }).first()).n as number;

  beforeAll(async () => {
    env = await testSchema();
    db = env.db;
    await db.schema.createTable('counters', (t) => {
      t.text('name').primary();
      t.integer('n').notNullable();
    });
  });
  beforeEach(async () => {
    await db.raw('TRUNCATE inbox, counters');
    await db('counters').insert({ name: 'c', n: 0 });
  });
  afterAll(async () => {
    await env.drop();
  });

  it('applies an event once and skips its redeliveries', async () => {
    const event = { id: randomUUID() };
    expect(await consumeOnce(db, 'svc.counter', event, bump)).toBe(true);
    expect(await consumeOnce(db, 'svc.counter', event, bump)).toBe(false);
    expect(await count()).toBe(1);
    expect(await db('inbox').select('consumer', 'event_id')).toEqual([{ consumer: 'svc.counter', event_id: event.id }]);
  });

  it('records nothing when the work throws, so a retry applies it', async () => {
    const event = { id: randomUUID() };
    await expect(
      consumeOnce(db, 'svc.counter', event, async (trx) => {
        await bump(trx);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await count()).toBe(0);
    expect(await db('inbox').count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await consumeOnce(db, 'svc.counter', event, bump)).toBe(true);
    expect(await count()).toBe(1);
  });

  it('keeps consumers independent of each other', async () => {
    const event = { id: randomUUID() };
    expect(await consumeOnce(db, 'svc.a', event, bump)).toBe(true);
    expect(await consumeOnce(db, 'svc.b', event, bump)).toBe(true);
    expect(await count()).toBe(2);
  });

  it('applies concurrent deliveries of one event exactly once', async () => {
    const event = { id: randomUUID() };
    const results = await Promise.all(Array.from({ length: 5 }, () => consumeOnce(db, 'svc.counter', event, bump)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await count()).toBe(1);
  });

  it('prunes inbox rows older than the cut-off', async () => {
    await consumeOnce(db, 'svc.counter', { id: randomUUID() }, bump);
    await db('inbox').update({ processed_at: db.raw("now() - interval '8 days'") });
    await consumeOnce(db, 'svc.counter', { id: randomUUID() }, bump);
    expect(await pruneInbox(db, 7 * 24 * 3600 * 1000)).toBe(1);
    expect(await db('inbox').count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});
