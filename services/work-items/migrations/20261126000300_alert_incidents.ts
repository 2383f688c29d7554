import type { Knex } from 'knex';

/** Which incident issue each alert opened (one per alert), so the alert's resolution can close it. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE alert_incidents (
      alert_id bigint PRIMARY KEY,
      project_id integer NOT NULL,
      issue_id integer NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
      created_at timestamptz(3) NOT NULL DEFAULT now()
    );
    CREATE INDEX alert_incidents_issue_idx ON alert_incidents (issue_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS alert_incidents');
}
