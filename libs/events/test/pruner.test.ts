import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { consumeOnce, emit, EventPruner, silentLogger } from '../src';
import { testSchema, waitFor } from './support/helpers';

const HOUR = 3_600_000;

describe('EventPruner', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  beforeEach(async () => {
    env = await testSchema('pruner');
    db = env.db;
  });
  afterEach(async () => env.drop());

  /** Outbox: one published 3 h ago, one published now, one unpublished from 3 h ago. Inbox: one applied 3 h ago, one now. */
  async function seed(): Promise<void> {
    await db.transaction(async (trx) => {
      for (const n of [1, 2, 3]) await emit(trx, 'widgets-svc', 'widgets.widget.created', { n });
    });
    const rows = await db('outbox').orderBy('id');
    await db('outbox').where('id', rows[0].id).update({ published_at: db.raw("now() - interval '3 hours'"), occurred_at: db.raw("now() - interval '3 hours'") });
    await db('outbox').where('id', rows[1].id).update({ published_at: db.fn.now() });
    await db('outbox').where('id', rows[2].id).update({ occurred_at: db.raw("now() - interval '3 hours'") });
    const noop = async () => undefined;
    await consumeOnce(db, 'svc.widgets', { id: randomUUID() }, noop);
    await db('inbox').update({ processed_at: db.raw("now() - interval '3 hours'") });
    await consumeOnce(db, 'svc.widgets', { id: randomUUID() }, noop);
  }

  it('deletes in one pass published and applied rows older than the retention, and keeps newer and unpublished ones', async () => {
    await seed();
    const pruner = new EventPruner(db, { retentionMs: 2 * HOUR, logger: silentLogger });
    expect(await pruner.pass()).toEqual({ outbox: 1, inbox: 1 });
    expect((await db('outbox').orderBy('id')).map((r) => [r.data.n, r.published_at === null])).toEqual([
      [2, false],
      [3, true],
    ]);
    expect(await db('inbox').count({ n: '*' })).toEqual([{ n: '1' }]);
    expect(await pruner.pass()).toEqual({ outbox: 0, inbox: 0 });
  });

  it('runs its passes on a schedule until stopped', async () => {
    await seed();
    const pruner = new EventPruner(db, { retentionMs: 2 * HOUR, intervalMs: 20, logger: silentLogger });
    pruner.start();
    try {
      await waitFor(async () => Number((await db('outbox').count({ n: '*' }))[0].n) === 2 && Number((await db('inbox').count({ n: '*' }))[0].n) === 1, 'a scheduled pass');
    } finally {
      await pruner.stop();
    }
    await db('inbox').update({ processed_at: db.raw("now() - interval '3 hours'") });
    await new Promise((r) => setTimeout(r, 100));
    expect(await db('inbox').count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});
