import type { Knex } from 'knex';

/**
 * What happens around an issue: notes, award emoji (thin until the emoji API), time logs,
 * subscriptions and to-dos. Polymorphic targets are `(type, id)` pairs, indexed for lookups.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE notes (
      id serial PRIMARY KEY,
      noteable_type text NOT NULL,
      noteable_id integer NOT NULL,
      project_id integer,
      group_id integer,
      author_id integer NOT NULL,
      body text NOT NULL,
      system boolean NOT NULL DEFAULT false,
      internal boolean NOT NULL DEFAULT false,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX notes_noteable_idx ON notes (noteable_type, noteable_id, created_at, id);

    CREATE TABLE award_emoji (
      id serial PRIMARY KEY,
      name text NOT NULL,
      user_id integer NOT NULL,
      awardable_type text NOT NULL,
      awardable_id integer NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX award_emoji_unique_idx ON award_emoji (awardable_type, awardable_id, user_id, name);
    CREATE INDEX award_emoji_user_idx ON award_emoji (user_id, awardable_type, name);

    CREATE TABLE timelogs (
      id serial PRIMARY KEY,
      issue_id integer REFERENCES issues (id) ON DELETE CASCADE,
      merge_request_id integer,
      user_id integer NOT NULL,
      time_spent integer NOT NULL,
      summary text,
      spent_at timestamptz(3) NOT NULL DEFAULT now(),
      created_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX timelogs_issue_idx ON timelogs (issue_id);

    CREATE TABLE subscriptions (
      user_id integer NOT NULL,
      subscribable_type text NOT NULL,
      subscribable_id integer NOT NULL,
      project_id integer,
      subscribed boolean NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, subscribable_type, subscribable_id)
    );

    CREATE TABLE todos (
      id serial PRIMARY KEY,
      user_id integer NOT NULL,
      project_id integer,
      group_id integer,
      author_id integer NOT NULL,
      target_type text NOT NULL,
      target_id integer NOT NULL,
      action text NOT NULL,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
      body text,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX todos_user_state_idx ON todos (user_id, state, id);
    CREATE INDEX todos_target_idx ON todos (target_type, target_id, user_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS todos, subscriptions, timelogs, award_emoji, notes');
}
