import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { assertEventType } from './topic';
import { EventEnvelope } from './types';

/** Postgres channel on which `emit` notifies relays (payload: the emitting schema). */
export const OUTBOX_CHANNEL = 'anvil_outbox';

/** One row of the `outbox` table. */
export interface OutboxRow {
  /** Claim order of the relay. */
  id: string;
  event_id: string;
  type: string;
  producer: string;
  version: number;
  occurred_at: Date;
  data: unknown;
  published_at: Date | null;
  attempts: number;
  last_error: string | null;
}

/**
 * Creates `outbox` and `inbox` in the current schema (call it from a service's first migration).
 * outbox: `id` bigserial (relay order), `event_id` uuid unique, type, producer, version,
 * occurred_at, data jsonb, published_at (null until the broker confirmed it), attempts, last_error;
 * a partial index on unpublished rows. inbox: primary key `(consumer, event_id)`, processed_at.
 */
export async function outboxTables(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('event_id').notNullable().unique();
    t.text('type').notNullable();
    t.text('producer').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.jsonb('data');
    t.timestamp('published_at', { useTz: true }).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
  });
  await knex.raw('CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL');
  await knex.raw('CREATE INDEX outbox_published_at_idx ON outbox (published_at) WHERE published_at IS NOT NULL');
  await knex.schema.createTable('inbox', (t) => {
    t.text('consumer').notNullable();
    t.uuid('event_id').notNullable();
    t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['consumer', 'event_id']);
  });
  await knex.raw('CREATE INDEX inbox_processed_at_idx ON inbox (processed_at)');
}

/** Drops the tables `outboxTables` created (a migration's `down`). */
export async function dropOutboxTables(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('inbox');
  await knex.schema.dropTableIfExists('outbox');
}

/**
 * Writes an event to the outbox inside the caller's transaction and notifies the relay at commit.
 * Nothing is published if the transaction rolls back; once it commits, the relay publishes the
 * event even across broker outages. Returns the envelope as consumers will receive it.
 */
export async function emit<T>(trx: Knex.Transaction | Knex, producer: string, type: string, data: T, version = 1): Promise<EventEnvelope<T>> {
  assertEventType(type);
  if (!producer) throw new Error('emit: producer is required');
  const event: EventEnvelope<T> = { id: randomUUID(), type, occurred_at: new Date().toISOString(), producer, version, data };
  await trx.raw(
    `WITH e AS (
       INSERT INTO outbox (event_id, type, producer, version, occurred_at, data) VALUES (?, ?, ?, ?, ?, ?::jsonb) RETURNING id
     ) SELECT pg_notify(?, current_schema()) FROM e`,
    [event.id, type, producer, version, event.occurred_at, JSON.stringify(data ?? null), OUTBOX_CHANNEL],
  );
  return event;
}

/** The envelope of an outbox row (what the relay publishes). */
export function rowToEnvelope(row: OutboxRow): EventEnvelope {
  return {
    id: row.event_id,
    type: row.type,
    occurred_at: new Date(row.occurred_at).toISOString(),
    producer: row.producer,
    version: row.version,
    data: row.data,
  };
}

/**
 * Deletes published outbox rows older than `olderThan` (a date, or an age in milliseconds).
 * Unpublished rows are never deleted. Returns how many rows went.
 */
export async function pruneOutbox(db: Knex, olderThan: Date | number): Promise<number> {
  const before = typeof olderThan === 'number' ? new Date(Date.now() - olderThan) : olderThan;
  return db('outbox').whereNotNull('published_at').where('published_at', '<', before).delete();
}

/**
 * Deletes inbox rows older than `olderThan` (a date, or an age in milliseconds). Keep them longer
 * than any redelivery can take (days), or a late duplicate would be applied again.
 */
export async function pruneInbox(db: Knex, olderThan: Date | number): Promise<number> {
  const before = typeof olderThan === 'number' ? new Date(Date.now() - olderThan) : olderThan;
  return db('inbox').where('processed_at', '<', before).delete();
}
