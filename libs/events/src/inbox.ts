import type { Knex } from 'knex';
import { EventEnvelope } from './types';

/**
 * Applies `event` at most once per `consumer`: in one transaction it records `(consumer, event.id)`
 * in `inbox` and runs `fn(trx)`. If the row exists (the event was applied before, or is being
 * applied right now by another delivery, which this call then waits for), `fn` is not run and the
 * result is false. If `fn` throws, nothing is recorded and the error propagates (so the bus retries).
 */
export async function consumeOnce(
  db: Knex | Knex.Transaction,
  consumer: string,
  event: Pick<EventEnvelope, 'id'>,
  fn: (trx: Knex.Transaction) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const inserted = await trx('inbox').insert({ consumer, event_id: event.id }).onConflict(['consumer', 'event_id']).ignore().returning('event_id');
    if (inserted.length === 0) return false;
    await fn(trx);
    return true;
  });
}
