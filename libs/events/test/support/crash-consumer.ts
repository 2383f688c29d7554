/**
 * A consumer process for the crash test: subscribes, applies the first event through the inbox,
 * then kills itself with SIGKILL before its handler resolves, so the event is never acked.
 */
import { createDb } from '@anvil/db';
import { AmqpBus, consumeOnce, silentLogger } from '../../src';

async function main(): Promise<void> {
  const { AMQP_URL, DB_URL, SCHEMA, QUEUE, TYPE } = process.env as Record<string, string>;
  const db = createDb({ url: DB_URL, schema: SCHEMA, role: false });
  const bus = new AmqpBus(AMQP_URL, { logger: silentLogger });
  await bus.ready();
  await bus.subscribe(QUEUE, [TYPE], async (event) => {
    const applied = await consumeOnce(db, 'crash-test', event, async (trx) => {
      await trx('counters').where({ name: 'c' }).increment('n', 1);
    });
    process.stdout.write(`applied ${applied}\n`);
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined);
  });
  process.stdout.write('ready\n');
}

main().catch((err) => {
  process.stderr.write(`${err}\n`);
  process.exit(1);
});
