import type { Knex } from 'knex';

/**
 * Alert integrations (token stored as a SHA-256 digest), alerts with a per-project iid and at most
 * one unresolved alert per fingerprint (the partial unique index that makes concurrent posts of one
 * new fingerprint one alert), per-project alert settings and the per-project iid counter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE alert_integrations (
      id bigserial PRIMARY KEY,
      project_id integer NOT NULL,
      name text NOT NULL,
      type text NOT NULL CHECK (type IN ('http', 'prometheus')),
      active boolean NOT NULL DEFAULT true,
      endpoint_identifier text NOT NULL,
      token_digest text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX alert_integrations_endpoint_key ON alert_integrations (project_id, endpoint_identifier);
    CREATE UNIQUE INDEX alert_integrations_one_prometheus_key ON alert_integrations (project_id) WHERE type = 'prometheus';

    CREATE TABLE alerts (
      id bigserial PRIMARY KEY,
      project_id integer NOT NULL,
      iid integer NOT NULL,
      integration_id bigint,
      title text NOT NULL,
      description text,
      severity text NOT NULL DEFAULT 'critical',
      status text NOT NULL DEFAULT 'triggered',
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      event_count integer NOT NULL DEFAULT 1,
      fingerprint text,
      monitoring_tool text,
      service text,
      hosts text[] NOT NULL DEFAULT '{}',
      environment text,
      payload jsonb NOT NULL DEFAULT '{}'::jsonb,
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      incident_markdown text,
      issue_iid integer,
      assignee_ids integer[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT alerts_project_iid_key UNIQUE (project_id, iid)
    );
    CREATE UNIQUE INDEX alerts_open_fingerprint_key ON alerts (project_id, fingerprint) WHERE status <> 'resolved' AND fingerprint IS NOT NULL;
    CREATE INDEX alerts_project_status_idx ON alerts (project_id, status, created_at, id);

    CREATE TABLE alert_settings (
      project_id integer PRIMARY KEY,
      create_issue boolean NOT NULL DEFAULT false,
      auto_close_incident boolean NOT NULL DEFAULT true,
      send_email boolean NOT NULL DEFAULT false,
      updated_by_id integer,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE alert_iids (
      project_id integer PRIMARY KEY,
      last_iid integer NOT NULL DEFAULT 0
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS alert_iids; DROP TABLE IF EXISTS alert_settings; DROP TABLE IF EXISTS alerts; DROP TABLE IF EXISTS alert_integrations;');
}
