import type { Knex } from 'knex';
import { extensionSchema } from '@anvil/db';

/** The trigram indexes: `%term%` ILIKE searches of users (name, username) and groups (name, path). */
const TRIGRAM = [
  ['users_name_trgm_idx', 'users', 'name', ''],
  ['users_username_trgm_idx', 'users', 'username', ''],
  ['namespaces_groups_name_trgm_idx', 'namespaces', 'name', "WHERE kind = 'group'"],
  ['namespaces_groups_path_trgm_idx', 'namespaces', 'path', "WHERE kind = 'group'"],
] as const;

/**
 * Indexes for the user and group lists: groups alone by id and by path (the personal namespaces
 * precede them in the primary key), users by public e-mail (searches match it exactly), and,
 * when the `pg_trgm` extension is installed (identity asks for it at start), trigram GIN indexes
 * for the searched columns. Without the extension the searches stay correct, without an index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX namespaces_groups_id_idx ON namespaces (id) WHERE kind = 'group'`);
  await knex.raw(`CREATE INDEX namespaces_groups_path_idx ON namespaces (path, id) WHERE kind = 'group'`);
  await knex.raw('CREATE INDEX users_public_email_lower_idx ON users (lower(public_email)) WHERE public_email IS NOT NULL');
  const trgm = await extensionSchema(knex, 'pg_trgm');
  if (!trgm) return;
  const ops = `"${trgm.replace(/"/g, '""')}".gin_trgm_ops`;
  for (const [name, table, column, where] of TRIGRAM) await knex.raw(`CREATE INDEX ${name} ON ${table} USING gin (${column} ${ops}) ${where}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of TRIGRAM) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  await knex.raw('DROP INDEX IF EXISTS users_public_email_lower_idx');
  await knex.raw('DROP INDEX IF EXISTS namespaces_groups_path_idx');
  await knex.raw('DROP INDEX IF EXISTS namespaces_groups_id_idx');
}
