import type { Knex } from 'knex';

/** Projects: the catalog every service builds on; path unique per namespace case-insensitively. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.increments('id').primary();
    t.text('name').notNullable();
    t.text('path').notNullable();
    t.integer('namespace_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.text('description').nullable();
    t.text('visibility').notNullable().defaultTo('private');
    t.boolean('archived').notNullable().defaultTo(false);
    t.integer('creator_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.text('default_branch').nullable();
    t.specificType('topics', 'text[]').notNullable().defaultTo('{}');
    t.integer('star_count').notNullable().defaultTo(0);
    t.integer('forks_count').notNullable().defaultTo(0);
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_activity_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE projects ADD CONSTRAINT projects_visibility_check CHECK (visibility IN ('private', 'internal', 'public'))`);
  await knex.raw('CREATE UNIQUE INDEX projects_namespace_path_lower_idx ON projects (namespace_id, lower(path))');
  await knex.raw('CREATE UNIQUE INDEX projects_namespace_name_idx ON projects (namespace_id, name)');
  await knex.raw('CREATE INDEX projects_visibility_idx ON projects (visibility, id)');
  await knex.raw('CREATE INDEX projects_created_at_idx ON projects (created_at, id)');
  await knex.raw('CREATE INDEX projects_last_activity_at_idx ON projects (last_activity_at, id)');
  await knex.raw('CREATE INDEX projects_creator_idx ON projects (creator_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('projects');
}
