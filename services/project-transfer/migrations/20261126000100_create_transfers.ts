import type { Knex } from 'knex';

/**
 * Project exports (one row per project and user, as GitLab keeps one export file per user), project
 * imports with their failed relations and per-relation counts, and relation imports.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE project_exports (
      id bigserial PRIMARY KEY,
      project_id integer NOT NULL,
      user_id integer NOT NULL,
      job_id uuid,
      job_status text CHECK (job_status IN ('queued', 'started', 'finished', 'failed')),
      description text,
      upload_url text,
      upload_method text CHECK (upload_method IN ('PUT', 'POST')),
      upload_headers jsonb NOT NULL DEFAULT '{}',
      parts_expected text[] NOT NULL DEFAULT '{}',
      parts_received jsonb NOT NULL DEFAULT '{}',
      archive_key text,
      archive_name text,
      archive_size bigint,
      counts jsonb NOT NULL DEFAULT '{}',
      error text,
      started_at timestamptz(3),
      finished_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      CONSTRAINT project_exports_project_user_key UNIQUE (project_id, user_id)
    );
    CREATE UNIQUE INDEX project_exports_job_idx ON project_exports (job_id) WHERE job_id IS NOT NULL;

    CREATE TABLE project_imports (
      id bigserial PRIMARY KEY,
      project_id integer,
      user_id integer NOT NULL,
      status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('none', 'scheduled', 'started', 'finished', 'failed', 'canceled')),
      import_type text NOT NULL DEFAULT 'gitlab_project',
      correlation_id uuid NOT NULL,
      archive_key text,
      path text NOT NULL,
      name text,
      namespace_id integer,
      overwrite boolean NOT NULL DEFAULT false,
      override_params jsonb NOT NULL DEFAULT '{}',
      counts jsonb NOT NULL DEFAULT '{}',
      parts_received text[] NOT NULL DEFAULT '{}',
      error text,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX project_imports_project_idx ON project_imports (project_id, id DESC);
    CREATE UNIQUE INDEX project_imports_correlation_idx ON project_imports (correlation_id);

    CREATE TABLE import_failures (
      id bigserial PRIMARY KEY,
      import_id bigint NOT NULL REFERENCES project_imports (id) ON DELETE CASCADE,
      relation_name text NOT NULL,
      line_number integer,
      exception_class text NOT NULL,
      exception_message text,
      source text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX import_failures_import_idx ON import_failures (import_id, id);

    CREATE TABLE relation_imports (
      id bigserial PRIMARY KEY,
      project_id integer NOT NULL,
      project_path text NOT NULL,
      relation text NOT NULL CHECK (relation IN ('issues', 'milestones', 'ci_pipelines', 'merge_requests')),
      status text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'started', 'finished', 'failed')),
      user_id integer NOT NULL,
      archive_key text,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX relation_imports_project_idx ON relation_imports (project_id, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS relation_imports, import_failures, project_imports, project_exports');
}
