import type { Knex } from 'knex';

/**
 * Read models of identity's users, groups, projects and memberships, fed by `identity.*` events.
 * `synced_at` is the `occurred_at` of the last applied event: an older event never overwrites a
 * newer one, and deletions leave a tombstone (`deleted`) so a late update cannot resurrect a row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE users (
      id integer PRIMARY KEY,
      username text NOT NULL,
      name text NOT NULL,
      state text NOT NULL DEFAULT 'active',
      avatar_url text,
      web_url text NOT NULL DEFAULT '',
      admin boolean NOT NULL DEFAULT false,
      deleted boolean NOT NULL DEFAULT false,
      synced_at timestamptz NOT NULL DEFAULT '-infinity'
    );
    CREATE INDEX users_lower_username_idx ON users (lower(username));

    CREATE TABLE groups (
      id integer PRIMARY KEY,
      name text NOT NULL,
      path text NOT NULL,
      full_path text NOT NULL,
      parent_id integer,
      visibility text NOT NULL DEFAULT 'private',
      traversal_ids integer[] NOT NULL DEFAULT '{}',
      deleted boolean NOT NULL DEFAULT false,
      synced_at timestamptz NOT NULL DEFAULT '-infinity'
    );
    CREATE INDEX groups_traversal_ids_idx ON groups USING gin (traversal_ids);

    CREATE TABLE projects (
      id integer PRIMARY KEY,
      name text NOT NULL,
      path text NOT NULL,
      path_with_namespace text NOT NULL,
      namespace_id integer NOT NULL,
      namespace_kind text NOT NULL DEFAULT 'group',
      group_id integer,
      group_traversal_ids integer[] NOT NULL DEFAULT '{}',
      visibility text NOT NULL DEFAULT 'private',
      archived boolean NOT NULL DEFAULT false,
      creator_id integer,
      web_url text NOT NULL DEFAULT '',
      deleted boolean NOT NULL DEFAULT false,
      synced_at timestamptz NOT NULL DEFAULT '-infinity'
    );
    CREATE INDEX projects_group_traversal_ids_idx ON projects USING gin (group_traversal_ids);
    CREATE INDEX projects_visibility_idx ON projects (visibility) WHERE NOT deleted;
    CREATE INDEX projects_lower_path_idx ON projects (lower(path_with_namespace));

    CREATE TABLE memberships (
      user_id integer NOT NULL,
      source_type text NOT NULL CHECK (source_type IN ('Project', 'Namespace')),
      source_id integer NOT NULL,
      access_level integer NOT NULL,
      expires_at date,
      synced_at timestamptz NOT NULL DEFAULT '-infinity',
      PRIMARY KEY (user_id, source_type, source_id)
    );
    CREATE INDEX memberships_source_idx ON memberships (source_type, source_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS memberships, projects, groups, users');
}
