import type { Knex } from 'knex';

/**
 * LDAP group links (a directory group by `cn`, or a user filter, granting `group_access` in a
 * group for one provider) and the groups' LDAP sync state (GitLab's `ldap_sync_*` namespace
 * columns). Links are listed per group and provider, hence the index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ldap_group_links', (t) => {
    t.increments('id').primary();
    t.integer('group_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.string('cn', 255).nullable();
    t.string('filter', 8192).nullable();
    t.string('provider', 255).notNullable();
    t.integer('group_access').notNullable();
    t.integer('member_role_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE ldap_group_links ADD CONSTRAINT ldap_group_links_cn_xor_filter CHECK ((cn IS NULL) <> (filter IS NULL))');
  await knex.raw('CREATE UNIQUE INDEX ldap_group_links_cn_idx ON ldap_group_links (group_id, provider, cn) WHERE cn IS NOT NULL');
  await knex.raw('CREATE UNIQUE INDEX ldap_group_links_filter_idx ON ldap_group_links (group_id, provider, filter) WHERE filter IS NOT NULL');
  await knex.schema.alterTable('namespaces', (t) => {
    t.text('ldap_sync_status').notNullable().defaultTo('ready');
    t.text('ldap_sync_error').nullable();
    t.timestamp('ldap_sync_last_sync_at', { useTz: true }).nullable();
    t.timestamp('ldap_sync_last_update_at', { useTz: true }).nullable();
    t.timestamp('ldap_sync_last_successful_update_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('namespaces', (t) => {
    t.dropColumns('ldap_sync_status', 'ldap_sync_error', 'ldap_sync_last_sync_at', 'ldap_sync_last_update_at', 'ldap_sync_last_successful_update_at');
  });
  await knex.schema.dropTableIfExists('ldap_group_links');
}
