import type { Knex } from 'knex';

/** Personal access tokens: only the SHA-256 digest of the token is stored (unique, the lookup key). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('personal_access_tokens', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').nullable();
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    t.text('token_digest').notNullable().unique();
    t.boolean('revoked').notNullable().defaultTo(false);
    t.date('expires_at').nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX personal_access_tokens_user_idx ON personal_access_tokens (user_id, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('personal_access_tokens');
}
