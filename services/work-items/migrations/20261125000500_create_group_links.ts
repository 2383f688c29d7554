import type { Knex } from 'knex';

/**
 * The read model of identity's group shares (`identity.group_link.*`): members of
 * `shared_with_group_id` (or of its ancestors) reach `shared_group_id`'s projects at the lower of
 * their level and `group_access` until `expires_at`. A removed share stays as a tombstone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE group_links (
      shared_group_id integer NOT NULL,
      shared_with_group_id integer NOT NULL,
      group_access integer NOT NULL,
      expires_at date,
      deleted boolean NOT NULL DEFAULT false,
      synced_at timestamptz NOT NULL DEFAULT '-infinity',
      PRIMARY KEY (shared_group_id, shared_with_group_id)
    );
    CREATE INDEX group_links_shared_with_idx ON group_links (shared_with_group_id) WHERE NOT deleted;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS group_links');
}
