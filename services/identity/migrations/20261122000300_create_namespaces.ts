import type { Knex } from 'knex';

/**
 * Namespaces: a user's personal namespace or a group (a group's id is its namespace id, as in
 * GitLab). `full_path` is unique case-insensitively; `traversal_ids` (root → self) makes ancestry
 * a GIN-indexed array overlap instead of a recursive query.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('namespaces', (t) => {
    t.increments('id').primary();
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.text('path').notNullable();
    t.text('full_path').notNullable();
    t.integer('parent_id').nullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.specificType('traversal_ids', 'integer[]').notNullable().defaultTo('{}');
    t.integer('owner_id').nullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('visibility').notNullable().defaultTo('private');
    t.text('description').notNullable().defaultTo('');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE namespaces ADD CONSTRAINT namespaces_kind_check CHECK (kind IN ('user', 'group'))`);
  await knex.raw(`ALTER TABLE namespaces ADD CONSTRAINT namespaces_visibility_check CHECK (visibility IN ('private', 'internal', 'public'))`);
  await knex.raw('CREATE UNIQUE INDEX namespaces_full_path_lower_idx ON namespaces (lower(full_path))');
  await knex.raw('CREATE INDEX namespaces_parent_idx ON namespaces (parent_id)');
  await knex.raw('CREATE INDEX namespaces_traversal_ids_idx ON namespaces USING gin (traversal_ids)');
  await knex.raw(`CREATE UNIQUE INDEX namespaces_owner_idx ON namespaces (owner_id) WHERE kind = 'user'`);
  await knex.raw(`CREATE INDEX namespaces_groups_name_idx ON namespaces (name, id) WHERE kind = 'group'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('namespaces');
}
