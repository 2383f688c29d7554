import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import { AmqpBus, Delivery, consumeOnce, silentLogger } from '../src';
import { amqpUrl, testSchema, uid, waitFor } from './support/helpers';

const ROOT = path.resolve(__dirname, '../../..');

/** Starts the crash consumer and resolves once it is subscribed. */
function startConsumer(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'support/crash-consumer.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`consumer did not start: ${err}`)), 15_000);
    child.stdout?.on('data', () => {
      if (out.includes('ready\n')) {
        clearTimeout(timer);
        resolve({ child, output: () => out, exited });
      }
    });
    child.on('exit', () => reject(new Error(`consumer exited early: ${out} ${err}`)));
  });
}

describe('a consumer killed before it acks', () => {
  let env: Awaited<ReturnType<typeof testSchema>>;
  let db: Knex;
  let bus: AmqpBus;

  beforeAll(async () => {
    env = await testSchema();
    db = env.db;
    await db.schema.createTable('counters', (t) => {
      t.text('name').primary();
      t.integer('n').notNullable();
    });
    await db('counters').insert({ name: 'c', n: 0 });
    bus = new AmqpBus(amqpUrl(), { logger: silentLogger });
    await bus.ready();
  });
  afterAll(async () => {
    await bus.close();
    await env.drop();
  });

  it('gets the event redelivered to a new consumer, which the inbox applies exactly once', async () => {
    const queue = `evt.${uid()}.crash`;
    const type = `t${uid()}.counter.bumped`;
    const consumer = await startConsumer({ AMQP_URL: amqpUrl(), DB_URL: env.url, SCHEMA: env.schema, QUEUE: queue, TYPE: type });
    try {
      const event = { id: randomUUID(), type, occurred_at: new Date().toISOString(), producer: 'test', version: 1, data: {} };
      await bus.publish(event);
      expect(await consumer.exited).toBe('SIGKILL');
      expect(consumer.output()).toContain('applied true');
      expect(await db('counters').pluck('n')).toEqual([1]);

      const seen: Array<{ delivery: Delivery; applied: boolean }> = [];
      await bus.subscribe(queue, [type], async (e, delivery) => {
        const applied = await consumeOnce(db, 'crash-test', e, async (trx) => {
          await trx('counters').where({ name: 'c' }).increment('n', 1);
        });
        seen.push({ delivery, applied });
      });
      await waitFor(() => seen.length === 1, 'the redelivered event', 10_000);
      expect(seen[0]).toEqual({ delivery: { queue, attempt: 1, redelivered: true }, applied: false });
      expect(await db('counters').pluck('n')).toEqual([1]);
      expect(await db('inbox').where({ consumer: 'crash-test' }).pluck('event_id')).toEqual([event.id]);
    } finally {
      consumer.child.kill('SIGKILL');
      await bus.deleteQueue(queue);
    }
  });
});
