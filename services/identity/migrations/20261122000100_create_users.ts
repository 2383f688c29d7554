import type { Knex } from 'knex';

/** Users: unique username and e-mail (case-insensitive), scrypt password digest, profile fields. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.text('username').notNullable();
    t.text('email').notNullable();
    t.text('name').notNullable();
    t.text('state').notNullable().defaultTo('active');
    t.boolean('admin').notNullable().defaultTo(false);
    t.text('password_digest').nullable();
    t.boolean('external').notNullable().defaultTo(false);
    t.boolean('bot').notNullable().defaultTo(false);
    t.text('bio').notNullable().defaultTo('');
    t.text('location').notNullable().defaultTo('');
    t.text('public_email').nullable();
    t.text('website_url').notNullable().defaultTo('');
    t.text('organization').notNullable().defaultTo('');
    t.text('job_title').notNullable().defaultTo('');
    t.text('pronouns').nullable();
    t.text('linkedin').notNullable().defaultTo('');
    t.text('twitter').notNullable().defaultTo('');
    t.text('discord').notNullable().defaultTo('');
    t.text('github').notNullable().defaultTo('');
    t.text('note').nullable();
    t.text('commit_email').nullable();
    t.integer('projects_limit').notNullable().defaultTo(100000);
    t.boolean('can_create_group').notNullable().defaultTo(true);
    t.boolean('private_profile').notNullable().defaultTo(false);
    t.integer('theme_id').notNullable().defaultTo(3);
    t.integer('color_scheme_id').notNullable().defaultTo(1);
    t.integer('created_by_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('confirmed_at', { useTz: true }).nullable();
    t.timestamp('last_sign_in_at', { useTz: true }).nullable();
    t.timestamp('current_sign_in_at', { useTz: true }).nullable();
    t.date('last_activity_on').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_state_check CHECK (state IN ('active', 'blocked'))`);
  await knex.raw('CREATE UNIQUE INDEX users_username_lower_idx ON users (lower(username))');
  await knex.raw('CREATE UNIQUE INDEX users_email_lower_idx ON users (lower(email))');
  await knex.raw('CREATE INDEX users_state_idx ON users (state)');
  await knex.raw('CREATE INDEX users_admin_idx ON users (id) WHERE admin');
  await knex.raw('CREATE INDEX users_created_at_idx ON users (created_at, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('users');
}
