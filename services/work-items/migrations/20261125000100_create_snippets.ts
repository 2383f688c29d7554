import type { Knex } from 'knex';

/**
 * Project snippets. A snippet's files live in `snippet_files` in their order (`position`); the
 * snippet row keeps `file_name` and `content` of the first file, as GitLab's legacy columns do.
 * `visibility_level` holds GitLab's levels: 0 private, 10 internal, 20 public; `user_agent` and
 * `ip_address` are the creating request's (GitLab's user agent detail). Lists are per
 * project, newest id first, optionally limited to some visibility levels.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE snippets (
      id serial PRIMARY KEY,
      project_id integer NOT NULL,
      author_id integer NOT NULL,
      title text NOT NULL,
      description text,
      file_name text,
      content text NOT NULL,
      visibility_level smallint NOT NULL CHECK (visibility_level IN (0, 10, 20)),
      user_agent text,
      ip_address text,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX snippets_project_id_idx ON snippets (project_id, id DESC);
    CREATE INDEX snippets_project_visibility_id_idx ON snippets (project_id, visibility_level, id DESC);

    CREATE TABLE snippet_files (
      snippet_id integer NOT NULL REFERENCES snippets (id) ON DELETE CASCADE,
      path text NOT NULL,
      content text NOT NULL,
      position smallint NOT NULL,
      PRIMARY KEY (snippet_id, path)
    );
    CREATE INDEX snippet_files_position_idx ON snippet_files (snippet_id, position);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS snippet_files, snippets');
}
