import type { Knex } from 'knex';
import { dropOutboxTables, outboxTables } from '@anvil/events';

/** The transactional outbox and the consumer inbox of this service. */
export async function up(knex: Knex): Promise<void> {
  await outboxTables(knex);
}

export async function down(knex: Knex): Promise<void> {
  await dropOutboxTables(knex);
}
