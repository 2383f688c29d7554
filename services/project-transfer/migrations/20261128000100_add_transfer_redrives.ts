import type { Knex } from 'knex';

/**
 * What the stuck-job sweep needs: each job's re-drive count, an export job's request time (the row
 * is reused by every job of a project and user), and partial indexes on the running jobs by their
 * last progress, so a sweep reads only the jobs it may act on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE project_exports ADD COLUMN redrives integer NOT NULL DEFAULT 0, ADD COLUMN requested_at timestamptz(3);
    UPDATE project_exports SET requested_at = coalesce(started_at, updated_at);
    ALTER TABLE project_exports ALTER COLUMN requested_at SET DEFAULT now(), ALTER COLUMN requested_at SET NOT NULL;
    ALTER TABLE project_imports ADD COLUMN redrives integer NOT NULL DEFAULT 0;
    ALTER TABLE relation_imports ADD COLUMN redrives integer NOT NULL DEFAULT 0;
    CREATE INDEX project_exports_running_idx ON project_exports (updated_at) WHERE job_status IN ('queued', 'started');
    CREATE INDEX project_imports_running_idx ON project_imports (updated_at) WHERE status IN ('scheduled', 'started');
    CREATE INDEX relation_imports_running_idx ON relation_imports (updated_at) WHERE status IN ('created', 'started');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS project_exports_running_idx, project_imports_running_idx, relation_imports_running_idx;
    ALTER TABLE relation_imports DROP COLUMN IF EXISTS redrives;
    ALTER TABLE project_imports DROP COLUMN IF EXISTS redrives;
    ALTER TABLE project_exports DROP COLUMN IF EXISTS redrives, DROP COLUMN IF EXISTS requested_at;
  `);
}
