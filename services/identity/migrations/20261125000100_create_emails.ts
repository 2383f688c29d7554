import type { Knex } from 'knex';

/**
 * Secondary e-mail addresses (`emails`, unique case-insensitively: an address belongs to one user,
 * primary or secondary), external identities (`identities`: one per provider and user, an
 * `extern_uid` unique per provider), administrators' custom attributes (`user_custom_attributes`,
 * one value per user and key), and `users.user_type` (null for humans; bots and internal users
 * carry GitLab's type names).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('emails', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('email').notNullable();
    t.timestamp('confirmed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX emails_email_lower_idx ON emails (lower(email))');
  await knex.raw('CREATE INDEX emails_user_idx ON emails (user_id, id)');

  await knex.schema.createTable('identities', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('extern_uid').notNullable();
    t.integer('saml_provider_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX identities_provider_uid_idx ON identities (provider, lower(extern_uid))');
  await knex.raw('CREATE UNIQUE INDEX identities_user_provider_idx ON identities (user_id, provider)');

  await knex.schema.createTable('user_custom_attributes', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX user_custom_attributes_user_key_idx ON user_custom_attributes (user_id, key)');
  await knex.raw('CREATE INDEX user_custom_attributes_key_value_idx ON user_custom_attributes (key, value)');

  await knex.schema.alterTable('users', (t) => {
    t.text('user_type').nullable();
  });
  await knex.raw('CREATE INDEX users_user_type_idx ON users (user_type) WHERE user_type IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('user_type');
  });
  await knex.schema.dropTableIfExists('user_custom_attributes');
  await knex.schema.dropTableIfExists('identities');
  await knex.schema.dropTableIfExists('emails');
}
