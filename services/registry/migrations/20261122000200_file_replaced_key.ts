import type { Knex } from '@anvil/db';

/**
 * The storage key a file row's last write replaced, set by the write itself (ON CONFLICT … DO UPDATE
 * sees the newest committed row), so the writer deletes exactly the object it displaced even when
 * uploads to one file race.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conan_files', (t) => {
    t.text('replaced_storage_key').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conan_files', (t) => {
    t.dropColumn('replaced_storage_key');
  });
}
