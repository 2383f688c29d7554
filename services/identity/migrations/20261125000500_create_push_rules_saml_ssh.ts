import type { Knex } from 'knex';

/**
 * Group push rules (at most one per group), SAML group links (one per group, SAML group name and
 * provider) and group SSH certificate authorities (a CA's SHA-256 fingerprint is unique across
 * the instance, as GitLab keys certificate sign-in by it). Rows go with their group.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('group_push_rules', (t) => {
    t.increments('id').primary();
    t.integer('namespace_id').notNullable().unique().references('id').inTable('namespaces').onDelete('CASCADE');
    t.string('commit_message_regex', 511).nullable();
    t.string('commit_message_negative_regex', 2047).nullable();
    t.string('branch_name_regex', 511).nullable();
    t.string('author_email_regex', 511).nullable();
    t.string('file_name_regex', 511).nullable();
    t.boolean('deny_delete_tag').nullable();
    t.boolean('member_check').notNullable().defaultTo(false);
    t.boolean('prevent_secrets').notNullable().defaultTo(false);
    t.integer('max_file_size').notNullable().defaultTo(0);
    t.boolean('commit_committer_check').nullable();
    t.boolean('commit_committer_name_check').notNullable().defaultTo(false);
    t.boolean('reject_unsigned_commits').nullable();
    t.boolean('reject_non_dco_commits').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('saml_group_links', (t) => {
    t.increments('id').primary();
    t.integer('namespace_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.string('saml_group_name', 255).notNullable();
    t.integer('access_level').notNullable();
    t.integer('member_role_id').nullable();
    t.string('provider', 255).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE UNIQUE INDEX saml_group_links_name_idx ON saml_group_links (namespace_id, saml_group_name, coalesce(provider, ''))");
  await knex.schema.createTable('group_ssh_certificates', (t) => {
    t.increments('id').primary();
    t.integer('namespace_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.string('title', 255).notNullable();
    t.text('key').notNullable();
    t.text('fingerprint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX group_ssh_certificates_fingerprint_idx ON group_ssh_certificates (fingerprint)');
  await knex.raw('CREATE INDEX group_ssh_certificates_namespace_idx ON group_ssh_certificates (namespace_id, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('group_ssh_certificates');
  await knex.schema.dropTableIfExists('saml_group_links');
  await knex.schema.dropTableIfExists('group_push_rules');
}
