import type { Knex } from 'knex';

/**
 * The CI sources kept per project, as Git objects: blobs and trees are content-addressed (shared
 * by every project and commit that holds the same bytes), commits and branches belong to a project.
 * `repositories` holds one row per project with a commit: its default branch, and the row a write
 * locks so that a project's commits are made one after another.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE repository_blobs (
      sha text PRIMARY KEY,
      size integer NOT NULL,
      content bytea NOT NULL
    );

    CREATE TABLE repository_trees (
      sha text PRIMARY KEY,
      entries jsonb NOT NULL
    );

    CREATE TABLE repositories (
      project_id integer PRIMARY KEY,
      default_branch text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE repository_commits (
      project_id integer NOT NULL,
      sha text NOT NULL,
      tree_sha text NOT NULL REFERENCES repository_trees (sha),
      parent_shas text[] NOT NULL DEFAULT '{}',
      author_name text NOT NULL,
      author_email text NOT NULL,
      authored_at timestamptz NOT NULL,
      committer_name text NOT NULL,
      committer_email text NOT NULL,
      committed_at timestamptz NOT NULL,
      message text NOT NULL,
      changed_paths text[] NOT NULL DEFAULT '{}',
      PRIMARY KEY (project_id, sha)
    );
    CREATE INDEX repository_commits_sha_prefix_idx ON repository_commits (project_id, sha text_pattern_ops);

    CREATE TABLE repository_branches (
      project_id integer NOT NULL,
      name text NOT NULL,
      commit_sha text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (project_id, name),
      FOREIGN KEY (project_id, commit_sha) REFERENCES repository_commits (project_id, sha)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS repository_branches;
    DROP TABLE IF EXISTS repository_commits;
    DROP TABLE IF EXISTS repositories;
    DROP TABLE IF EXISTS repository_trees;
    DROP TABLE IF EXISTS repository_blobs;
  `);
}
