import type { Knex } from 'knex';

/**
 * Project shares: `project_id` is shared with (invites) `group_id`, whose members (and the members
 * of its ancestors) reach the project at the lower of their level and `group_access` until
 * `expires_at`. Access lookups start from the project or from the invited group: both are indexed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_group_links', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.integer('group_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.integer('group_access').notNullable();
    t.date('expires_at').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX project_group_links_project_group_idx ON project_group_links (project_id, group_id)');
  await knex.raw('CREATE INDEX project_group_links_group_project_idx ON project_group_links (group_id, project_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('project_group_links');
}
