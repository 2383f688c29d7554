import type { Knex } from 'knex';

/**
 * Memberships of users in projects (`source_type` Project) and groups (`Namespace`), one per
 * source and user. The hot path asks "what is user U's level on these sources", hence the index
 * leading with user_id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('members', (t) => {
    t.increments('id').primary();
    t.text('source_type').notNullable();
    t.integer('source_id').notNullable();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('access_level').notNullable();
    t.date('expires_at').nullable();
    t.integer('created_by_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE members ADD CONSTRAINT members_source_type_check CHECK (source_type IN ('Project', 'Namespace'))`);
  await knex.raw('CREATE UNIQUE INDEX members_source_user_idx ON members (source_type, source_id, user_id)');
  await knex.raw('CREATE INDEX members_user_idx ON members (user_id, source_type, access_level)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('members');
}
