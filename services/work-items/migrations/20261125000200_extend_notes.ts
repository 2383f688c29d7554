import type { Knex } from 'knex';

/**
 * Notes as GitLab's Notes API keeps them: who last edited a note and when (`updated_by_id`,
 * `last_edited_at`), and the indexes its lists sort on (`id` for `order_by=created_at`,
 * `updated_at, id` for `order_by=updated_at`), per noteable.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE notes ADD COLUMN updated_by_id integer, ADD COLUMN last_edited_at timestamptz(3);
    DROP INDEX IF EXISTS notes_noteable_idx;
    CREATE INDEX notes_noteable_id_idx ON notes (noteable_type, noteable_id, id);
    CREATE INDEX notes_noteable_updated_idx ON notes (noteable_type, noteable_id, updated_at, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS notes_noteable_updated_idx;
    DROP INDEX IF EXISTS notes_noteable_id_idx;
    CREATE INDEX notes_noteable_idx ON notes (noteable_type, noteable_id, created_at, id);
    ALTER TABLE notes DROP COLUMN last_edited_at, DROP COLUMN updated_by_id;
  `);
}
