import type { Knex } from 'knex';
import { createDb, dropSchema, ensureSchema } from '@anvil/db';
import { outboxTables } from '../../src';

/** A short random lowercase id (unique per run and test). */
export function uid(): string {
  return `${process.env.ANVIL_TEST_RUN ?? 'local'}_${Math.random().toString(36).slice(2, 8)}`;
}

/** The broker of the AMQP tests: TEST_AMQP_URL when it is an AMQP URL, else the loopback default. */
export function amqpUrl(): string {
  const url = process.env.TEST_AMQP_URL;
  return url && /^amqps?:/.test(url) ? url : 'amqp://guest:guest@127.0.0.1:5672';
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `fn` until it returns a truthy value; rejects with `what` after `timeoutMs`. */
export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000, everyMs = 10): Promise<Truthy<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A promise with its resolver, to hold a handler until the test releases it. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** A fresh schema with the outbox/inbox tables; `drop()` removes it. */
export async function testSchema(prefix = 'evt'): Promise<{ schema: string; url: string; db: Knex; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL as string;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (jest globalSetup sets it)');
  const schema = `${prefix}_${uid()}`;
  await ensureSchema({ url, schema, role: false });
  const db = createDb({ url, schema, role: false });
  await outboxTables(db);
  return {
    schema,
    url,
    db,
    drop: async () => {
      await db.destroy();
      await dropSchema({ url, schema, role: false });
    },
  };
}
