import type { Knex } from 'knex';

/**
 * Pipelines, their jobs and variables (GitLab's ci_pipelines, ci_builds, ci_pipeline_variables),
 * plus snapshots of the users and projects they name (`ci_users`, `ci_projects`: the project row
 * also holds the per-project pipeline iid counter). Every list filter and order of
 * `GET /projects/:id/pipelines` and the job lists has an index led by `project_id` or `pipeline_id`;
 * the main ones carry `source` (child pipelines are left out of lists) so counts stay index-only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE ci_users (
      id integer PRIMARY KEY,
      username text NOT NULL,
      name text NOT NULL,
      state text NOT NULL DEFAULT 'active',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ci_users_lower_username_idx ON ci_users (lower(username));

    CREATE TABLE ci_projects (
      id integer PRIMARY KEY,
      path_with_namespace text NOT NULL,
      visibility text NOT NULL DEFAULT 'private',
      last_pipeline_iid integer NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE pipelines (
      id serial PRIMARY KEY,
      project_id integer NOT NULL,
      iid integer NOT NULL,
      name text,
      ref text NOT NULL,
      sha text NOT NULL,
      before_sha text NOT NULL,
      tag boolean NOT NULL DEFAULT false,
      source text NOT NULL,
      status text NOT NULL DEFAULT 'created',
      user_id integer,
      parent_pipeline_id integer REFERENCES pipelines (id) ON DELETE SET NULL,
      yaml_errors text,
      coverage numeric(5, 2),
      duration integer,
      queued_duration integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      committed_at timestamptz,
      UNIQUE (project_id, iid)
    );
    CREATE INDEX pipelines_project_id_idx ON pipelines (project_id, id) INCLUDE (source, status);
    CREATE INDEX pipelines_project_status_idx ON pipelines (project_id, status, id) INCLUDE (source);
    CREATE INDEX pipelines_project_ref_idx ON pipelines (project_id, ref, id) INCLUDE (source, tag);
    CREATE INDEX pipelines_project_sha_idx ON pipelines (project_id, sha, id);
    CREATE INDEX pipelines_project_source_idx ON pipelines (project_id, source, id);
    CREATE INDEX pipelines_project_updated_idx ON pipelines (project_id, updated_at, id);
    CREATE INDEX pipelines_project_created_idx ON pipelines (project_id, created_at, id);
    CREATE INDEX pipelines_project_user_idx ON pipelines (project_id, user_id, id);
    CREATE INDEX pipelines_project_name_idx ON pipelines (project_id, name, id) WHERE name IS NOT NULL;
    CREATE INDEX pipelines_project_yaml_errors_idx ON pipelines (project_id, id) WHERE yaml_errors IS NOT NULL;
    CREATE INDEX pipelines_parent_idx ON pipelines (parent_pipeline_id) WHERE parent_pipeline_id IS NOT NULL;

    CREATE TABLE pipeline_variables (
      id serial PRIMARY KEY,
      pipeline_id integer NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
      key text NOT NULL,
      value text NOT NULL DEFAULT '',
      variable_type text NOT NULL DEFAULT 'env_var' CHECK (variable_type IN ('env_var', 'file')),
      UNIQUE (pipeline_id, key)
    );

    CREATE TABLE jobs (
      id serial PRIMARY KEY,
      pipeline_id integer NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
      project_id integer NOT NULL,
      type text NOT NULL DEFAULT 'build' CHECK (type IN ('build', 'bridge')),
      name text NOT NULL,
      stage text NOT NULL,
      stage_idx integer NOT NULL,
      status text NOT NULL DEFAULT 'created',
      "when" text NOT NULL DEFAULT 'on_success',
      allow_failure boolean NOT NULL DEFAULT false,
      allow_failure_exit_codes integer[] NOT NULL DEFAULT '{}',
      needs jsonb,
      options jsonb NOT NULL DEFAULT '{}',
      variables jsonb NOT NULL DEFAULT '{}',
      job_variables jsonb NOT NULL DEFAULT '[]',
      tags text[] NOT NULL DEFAULT '{}',
      timeout integer,
      start_in integer,
      retried boolean NOT NULL DEFAULT false,
      retries integer NOT NULL DEFAULT 0,
      user_id integer,
      coverage numeric(5, 2),
      runner_id integer,
      token_digest text,
      cancel_gracefully boolean NOT NULL DEFAULT false,
      failure_reason text,
      exit_code integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      queued_at timestamptz,
      scheduled_at timestamptz,
      started_at timestamptz,
      finished_at timestamptz,
      erased_at timestamptz
    );
    CREATE INDEX jobs_pipeline_idx ON jobs (pipeline_id, id);
    CREATE INDEX jobs_project_idx ON jobs (project_id, id);
    CREATE INDEX jobs_project_status_idx ON jobs (project_id, status, id);
    CREATE INDEX jobs_pending_idx ON jobs (id) WHERE status = 'pending';
    CREATE INDEX jobs_scheduled_idx ON jobs (scheduled_at) WHERE status = 'scheduled';
    CREATE INDEX jobs_runner_idx ON jobs (runner_id) WHERE runner_id IS NOT NULL;
    CREATE UNIQUE INDEX jobs_token_digest_idx ON jobs (token_digest) WHERE token_digest IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS jobs, pipeline_variables, pipelines, ci_projects, ci_users');
}
