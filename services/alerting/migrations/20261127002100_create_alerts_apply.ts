import type { Knex } from 'knex';

/**
 * `alerts_apply(inputs jsonb)`: applies notified alerts in order, in the caller's transaction, one
 * statement for a whole batch. Each element resolves the project's unresolved alert with its
 * fingerprint (`resolved`, else `unmatched`), or counts one more event on it (`repeated`), or takes
 * the project's next iid (locking its counter until the transaction ends), looks for the unresolved
 * alert again under that lock (each statement of the function sees what committed before it) and
 * gives the iid back when another transaction opened it meanwhile, else inserts a new triggered
 * alert (`created`). Returns one `(ord, kind, alert_id)` per element.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION alerts_apply(inputs jsonb) RETURNS TABLE (ord integer, kind text, alert_id bigint)
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      a jsonb;
      project integer;
      new_iid integer;
    BEGIN
      ord := 0;
      FOR a IN SELECT value FROM jsonb_array_elements(inputs) LOOP
        project := (a->>'project_id')::integer;
        alert_id := NULL;
        IF (a->>'resolving')::boolean THEN
          UPDATE alerts SET status = 'resolved', ended_at = (a->>'ended_at')::timestamptz, updated_at = (a->>'now')::timestamptz
            WHERE project_id = project AND fingerprint = a->>'fingerprint' AND status <> 'resolved' RETURNING id INTO alert_id;
          kind := CASE WHEN alert_id IS NULL THEN 'unmatched' ELSE 'resolved' END;
        ELSE
          UPDATE alerts SET event_count = event_count + 1, updated_at = (a->>'now')::timestamptz
            WHERE project_id = project AND fingerprint = a->>'fingerprint' AND status <> 'resolved' RETURNING id INTO alert_id;
          kind := 'repeated';
          IF alert_id IS NULL THEN
            INSERT INTO alert_iids AS c (project_id, last_iid) VALUES (project, 1)
              ON CONFLICT (project_id) DO UPDATE SET last_iid = c.last_iid + 1 RETURNING last_iid INTO new_iid;
            UPDATE alerts SET event_count = event_count + 1, updated_at = (a->>'now')::timestamptz
              WHERE project_id = project AND fingerprint = a->>'fingerprint' AND status <> 'resolved' RETURNING id INTO alert_id;
            IF alert_id IS NOT NULL THEN
              UPDATE alert_iids SET last_iid = last_iid - 1 WHERE project_id = project;
            ELSE
              INSERT INTO alerts (project_id, iid, integration_id, title, description, severity, status, started_at, event_count, fingerprint,
                                  monitoring_tool, service, hosts, environment, payload, details, incident_markdown, created_at, updated_at)
              VALUES (project, new_iid, (a->>'integration_id')::bigint, a->>'title', a->>'description', a->>'severity', 'triggered',
                      (a->>'started_at')::timestamptz, 1, a->>'fingerprint', a->>'monitoring_tool', a->>'service',
                      ARRAY(SELECT jsonb_array_elements_text(a->'hosts')), a->>'environment', a->'payload', a->'details', a->>'incident_markdown',
                      (a->>'now')::timestamptz, (a->>'now')::timestamptz)
              RETURNING id INTO alert_id;
              kind := 'created';
            END IF;
          END IF;
        END IF;
        RETURN NEXT;
        ord := ord + 1;
      END LOOP;
    END
    $fn$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS alerts_apply(jsonb)');
}
