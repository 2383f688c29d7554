import type { Knex } from 'knex';

/** The instance settings this service last applied (one row), so a restart keeps an administrator's values. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE instance_settings (
      id integer PRIMARY KEY CHECK (id = 1),
      settings jsonb NOT NULL,
      -- the applied event's time: an older event delivered late changes nothing
      occurred_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS instance_settings');
}
