import type { Knex } from 'knex';

/**
 * Group shares: `shared_group_id` is shared with (invites) `shared_with_group_id`, whose members
 * reach the shared group at the lower of their level and `group_access` until `expires_at`. Access
 * lookups start from the invited group (the members' side), lists of a group's shares from the
 * shared group: both are indexed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('group_group_links', (t) => {
    t.increments('id').primary();
    t.integer('shared_group_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.integer('shared_with_group_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.integer('group_access').notNullable();
    t.date('expires_at').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX group_group_links_shared_idx ON group_group_links (shared_group_id, shared_with_group_id)');
  await knex.raw('CREATE INDEX group_group_links_shared_with_idx ON group_group_links (shared_with_group_id, shared_group_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('group_group_links');
}
