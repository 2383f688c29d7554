import type { Knex } from 'knex';
import { extensionSchema } from '@anvil/db';

/**
 * `users.search_text`: the lower-cased name and username, one line each, kept by Postgres (a stored
 * generated column), with one trigram GIN index in place of the two on `name` and `username`. A
 * search is then one case-sensitive `LIKE` on an already lower-cased column: no per-row case
 * folding on recheck, and one bitmap instead of two. Indexes on the lower-cased name and on
 * `(name, id)` serve a search's relevance order (exact matches first, then by name).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE users ADD COLUMN search_text text GENERATED ALWAYS AS (lower(name) || E'\\n' || lower(username)) STORED`);
  // a search ranks exact names first, then orders the rest by name
  await knex.raw('CREATE INDEX users_name_lower_idx ON users (lower(name))');
  await knex.raw('CREATE INDEX users_name_id_idx ON users (name, id)');
  const trgm = await extensionSchema(knex, 'pg_trgm');
  if (!trgm) return;
  const ops = `"${trgm.replace(/"/g, '""')}".gin_trgm_ops`;
  await knex.raw(`CREATE INDEX users_search_text_trgm_idx ON users USING gin (search_text ${ops})`);
  await knex.raw('DROP INDEX IF EXISTS users_name_trgm_idx');
  await knex.raw('DROP INDEX IF EXISTS users_username_trgm_idx');
}

export async function down(knex: Knex): Promise<void> {
  const trgm = await extensionSchema(knex, 'pg_trgm');
  if (trgm) {
    const ops = `"${trgm.replace(/"/g, '""')}".gin_trgm_ops`;
    await knex.raw(`CREATE INDEX users_name_trgm_idx ON users USING gin (name ${ops})`);
    await knex.raw(`CREATE INDEX users_username_trgm_idx ON users USING gin (username ${ops})`);
  }
  await knex.raw('DROP INDEX IF EXISTS users_name_id_idx');
  await knex.raw('DROP INDEX IF EXISTS users_name_lower_idx');
  await knex.raw('ALTER TABLE users DROP COLUMN search_text');
}
