import type { Knex } from 'knex';

/** The boolean event switches of a web hook, as GitLab's `web_hooks` columns (all default false). */
const HOOK_EVENT_COLUMNS = [
  'tag_push_events', 'issues_events', 'confidential_issues_events', 'merge_requests_events', 'note_events',
  'job_events', 'pipeline_events', 'wiki_page_events', 'deployment_events', 'feature_flag_events', 'releases_events',
  'subgroup_events', 'emoji_events', 'resource_access_token_events', 'member_events', 'vulnerability_events',
  'project_events', 'milestone_events', 'repository_update_events',
] as const;

/**
 * Instance settings (one row, GitLab's names as jsonb keys; code holds the defaults), group web hooks
 * (GitLab's `web_hooks` columns; `url_variables`/`custom_headers` as key → value maps), their
 * pending deliveries (retried with backoff) and the log of recent deliveries (`web_hook_logs`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('application_settings', (t) => {
    t.integer('id').primary();
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE application_settings ADD CONSTRAINT application_settings_single_row CHECK (id = 1)');
  await knex.schema.createTable('web_hooks', (t) => {
    t.increments('id').primary();
    t.integer('group_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('token').nullable();
    t.string('name', 255).nullable();
    t.string('description', 2048).nullable();
    t.boolean('push_events').notNullable().defaultTo(true);
    for (const c of HOOK_EVENT_COLUMNS) t.boolean(c).notNullable().defaultTo(false);
    t.boolean('confidential_note_events').nullable();
    t.boolean('enable_ssl_verification').notNullable().defaultTo(true);
    t.text('push_events_branch_filter').nullable();
    t.text('branch_filter_strategy').notNullable().defaultTo('wildcard');
    t.string('custom_webhook_template', 4096).nullable();
    t.jsonb('url_variables').notNullable().defaultTo('{}');
    t.jsonb('custom_headers').notNullable().defaultTo('{}');
    t.smallint('recent_failures').notNullable().defaultTo(0);
    t.timestamp('disabled_until', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX web_hooks_group_idx ON web_hooks (group_id, id)');
  await knex.schema.createTable('web_hook_deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.integer('web_hook_id').notNullable().references('id').inTable('web_hooks').onDelete('CASCADE');
    t.text('trigger').notNullable();
    t.jsonb('payload').notNullable();
    t.uuid('idempotency_key').notNullable();
    t.uuid('event_uuid').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX web_hook_deliveries_due_idx ON web_hook_deliveries (next_attempt_at)');
  await knex.schema.createTable('web_hook_logs', (t) => {
    t.bigIncrements('id').primary();
    t.integer('web_hook_id').notNullable().references('id').inTable('web_hooks').onDelete('CASCADE');
    t.text('trigger').notNullable();
    t.text('url').notNullable();
    t.text('url_hash').notNullable();
    t.jsonb('request_headers').notNullable().defaultTo('{}');
    t.jsonb('request_data').notNullable().defaultTo('{}');
    t.jsonb('response_headers').notNullable().defaultTo('{}');
    t.text('response_body').nullable();
    t.text('response_status').notNullable();
    t.double('execution_duration').notNullable();
    t.text('internal_error_message').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX web_hook_logs_hook_created_idx ON web_hook_logs (web_hook_id, created_at DESC)');
  await knex.raw('CREATE INDEX web_hook_logs_created_idx ON web_hook_logs (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('web_hook_logs');
  await knex.schema.dropTableIfExists('web_hook_deliveries');
  await knex.schema.dropTableIfExists('web_hooks');
  await knex.schema.dropTableIfExists('application_settings');
}
