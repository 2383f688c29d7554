import type { Knex } from 'knex';

/** The Postgres channel announcing pending jobs (shared by every schema; the payload names one). */
export const JOBS_PENDING_CHANNEL = 'anvil_jobs_pending';

/**
 * Runners (authentication tokens hashed at rest; job tokens are digests on `jobs`), job traces kept
 * as byte-offset chunks, job artifacts' metadata (their bytes live in object storage), and the
 * notification that wakes long-polling runners when a job becomes pending (payload: the schema).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('runners', (t) => {
    t.bigIncrements('id').primary();
    t.text('token_digest').notNullable().unique();
    t.text('runner_type').notNullable();
    t.bigInteger('project_id').nullable();
    t.bigInteger('group_id').nullable();
    /** The group's full path when created: its projects are those whose path starts with it. */
    t.text('group_full_path').nullable();
    t.text('description').notNullable().defaultTo('');
    t.text('maintenance_note').nullable();
    t.specificType('tag_list', 'text[]').notNullable().defaultTo('{}');
    t.boolean('run_untagged').notNullable().defaultTo(true);
    t.boolean('locked').notNullable().defaultTo(false);
    t.boolean('paused').notNullable().defaultTo(false);
    t.text('access_level').notNullable().defaultTo('not_protected');
    t.integer('maximum_timeout').nullable();
    t.text('creation_state').notNullable().defaultTo('started');
    t.bigInteger('creator_id').nullable();
    t.jsonb('info').nullable();
    t.timestamp('contacted_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['project_id']);
    t.index(['group_id']);
  });
  await knex.raw(`alter table runners add constraint runners_type_check check (
    (runner_type = 'instance_type' and project_id is null and group_id is null)
    or (runner_type = 'group_type' and group_id is not null and project_id is null)
    or (runner_type = 'project_type' and project_id is not null and group_id is null))`);
  await knex.schema.createTable('job_trace_chunks', (t) => {
    t.bigInteger('job_id').notNullable();
    t.bigInteger('start_offset').notNullable();
    t.binary('data').notNullable();
    t.primary(['job_id', 'start_offset']);
  });
  await knex.schema.createTable('job_artifacts', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('job_id').notNullable();
    t.bigInteger('project_id').notNullable();
    t.bigInteger('pipeline_id').notNullable();
    t.text('file_type').notNullable();
    t.text('file_format').notNullable();
    t.text('filename').notNullable();
    t.bigInteger('size').notNullable();
    t.text('sha256').notNullable();
    t.text('storage_key').notNullable();
    t.timestamp('expire_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['job_id', 'file_type']);
    t.index(['pipeline_id', 'file_type']);
  });
  await knex.raw(`
    CREATE FUNCTION notify_job_pending() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${JOBS_PENDING_CHANNEL}', TG_TABLE_SCHEMA);
      RETURN NULL;
    END $$;
    CREATE TRIGGER jobs_pending_notify AFTER INSERT OR UPDATE OF status ON jobs
      FOR EACH ROW WHEN (NEW.status = 'pending') EXECUTE FUNCTION notify_job_pending();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS jobs_pending_notify ON jobs; DROP FUNCTION IF EXISTS notify_job_pending()');
  await knex.schema.dropTableIfExists('job_artifacts');
  await knex.schema.dropTableIfExists('job_trace_chunks');
  await knex.schema.dropTableIfExists('runners');
}
