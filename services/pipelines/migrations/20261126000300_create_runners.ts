import type { Knex } from 'knex';

/**
 * Runners (authentication tokens hashed at rest), the job tokens handed to them, job traces kept as
 * byte-offset chunks, and job artifacts' metadata (their bytes live in object storage).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('runners', (t) => {
    t.bigIncrements('id').primary();
    t.text('token_digest').notNullable().unique();
    t.text('runner_type').notNullable();
    t.bigInteger('project_id').nullable();
    t.bigInteger('group_id').nullable();
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
  await knex.schema.createTable('job_tokens', (t) => {
    t.bigInteger('job_id').primary();
    t.text('token_digest').notNullable().unique();
    t.bigInteger('runner_id').notNullable().references('id').inTable('runners').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
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
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_artifacts');
  await knex.schema.dropTableIfExists('job_trace_chunks');
  await knex.schema.dropTableIfExists('job_tokens');
  await knex.schema.dropTableIfExists('runners');
}
