import type { Knex } from 'knex';

/**
 * The read model of identity's project shares (`identity.project_group_link.*`): members of
 * `group_id` (directly or through an ancestor group) reach `project_id` at the lower of their
 * level and `group_access` until `expires_at`. A removed share stays as a tombstone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE project_group_links (
      project_id integer NOT NULL,
      group_id integer NOT NULL,
      group_access integer NOT NULL,
      expires_at date,
      deleted boolean NOT NULL DEFAULT false,
      synced_at timestamptz NOT NULL DEFAULT '-infinity',
      PRIMARY KEY (project_id, group_id)
    );
    CREATE INDEX project_group_links_group_idx ON project_group_links (group_id) WHERE NOT deleted;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS project_group_links');
}
