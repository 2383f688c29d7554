import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Knex } from 'knex';
import { AmqpBus, consumeOnce, EventEnvelope, OutboxRelay, emit, silentLogger } from '../src';
import { amqpUrl, testSchema, uid, waitFor } from './support/helpers';

const ROOT = path.resolve(__dirname, '../../..');

/** Runs `npm run -s events:<command> -- …args` as an operator would, against the test broker. */
function npmRun(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '-s', `events:${command}`, '--', ...args], { cwd: ROOT, env: { ...process.env, AMQP_URL: amqpUrl() }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('events:dead and events:replay', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  let bus: AmqpBus;
  let relay: OutboxRelay;
  const queue = `evt.${uid()}.cli`;
  const type = `cli${uid()}.widget.created`;

  beforeAll(async () => {
    env = await testSchema();
    db = env.db;
    await db.schema.createTable('applied', (t) => {
      t.uuid('event_id');
      t.text('name');
    });
    bus = new AmqpBus(amqpUrl(), { logger: silentLogger });
    await bus.ready();
    relay = new OutboxRelay(db, bus, { logger: silentLogger, pollMs: 100 });
    relay.start();
  });
  afterAll(async () => {
    await relay.stop();
    await bus.deleteQueue(queue).catch(() => undefined);
    await bus.close();
    await env.drop();
  });

  it('lists a dead letter with its error, replays it by id, and the fixed handler applies each event once', async () => {
    let broken = true;
    const calls: Array<[string, number]> = [];
    await bus.subscribe(queue, [type], async (e: EventEnvelope, d) => {
      const name = (e.data as { name: string }).name;
      calls.push([name, d.attempt]);
      await consumeOnce(db, 'cli-test', e, async (trx) => {
        await trx('applied').insert({ event_id: e.id, name });
        if (broken && name === 'poison') throw new Error('cannot apply poison');
      });
      // fails after its change committed: a replay must not apply it twice
      if (broken && name === 'late') throw new Error('failed after commit');
    }, { maxAttempts: 2, retryDelayMs: 50 });

    const poison = await db.transaction((trx) => emit(trx, 'cli-test', type, { name: 'poison' }));
    const late = await db.transaction((trx) => emit(trx, 'cli-test', type, { name: 'late' }));
    await waitFor(async () => (await bus.deadLetterCount(queue)) === 2, 'two dead letters', 10_000, 50);

    const listed = await npmRun('dead', [queue]);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows[0]).toEqual(['id', 'type', 'attempts', 'error', 'failed_at']);
    expect(rows.slice(1).map((r) => r.slice(0, 4)).sort()).toEqual(
      [
        [poison.id, type, '2', 'cannot apply poison'],
        [late.id, type, '2', 'failed after commit'],
      ].sort(),
    );
    expect(new Date(rows[1][4]).getTime()).not.toBeNaN();
    expect(listed.stderr).toContain(`2 dead letter(s) in ${queue}`);

    broken = false;
    const one = await npmRun('replay', [queue, '--id', poison.id]);
    expect(one.code).toBe(0);
    expect(one.stdout.split('\t')[0]).toBe(poison.id);
    await waitFor(async () => (await db('applied').where({ event_id: poison.id })).length === 1, 'the replayed event applied');
    expect(await bus.deadLetterCount(queue)).toBe(1);

    const rest = await npmRun('replay', [queue, '--limit', '5']);
    expect(rest.code).toBe(0);
    expect(rest.stderr).toContain(`replayed 1 dead letter(s) to ${queue}`);
    await waitFor(() => calls.filter(([n]) => n === 'late').length === 3, 'the late event redelivered');
    await waitFor(async () => (await db('inbox').where({ consumer: 'cli-test' })).length === 2, 'both events in the inbox');
    const applied = await db('applied').orderBy('name').select('name', 'event_id');
    expect(applied).toEqual([
      { name: 'late', event_id: late.id },
      { name: 'poison', event_id: poison.id },
    ]);
    expect(calls.filter(([n]) => n === 'poison')).toEqual([['poison', 1], ['poison', 2], ['poison', 1]]);
    expect(await bus.deadLetterCount(queue)).toBe(0);
  });

  it('refuses bad arguments and unknown queues with a non-zero exit', async () => {
    const noQueue = await npmRun('replay', []);
    expect(noQueue.code).toBe(2);
    expect(noQueue.stderr).toContain('the queue name is required');
    const badLimit = await npmRun('replay', [queue, '--limit', 'x']);
    expect(badLimit.code).toBe(2);
    const missing = await npmRun('replay', [`evt.${uid()}.missing`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
  });
});
