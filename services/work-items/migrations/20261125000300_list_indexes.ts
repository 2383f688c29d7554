import type { Knex } from 'knex';

/**
 * Found with EXPLAIN under the issues benchmark: a list filtered by label or assignee counted its
 * matches (up to 10,001) by joining every issue of the project (or group) to `issue_labels` /
 * `issue_assignees`. Each issue now carries its label and assignee ids (`label_ids`,
 * `assignee_ids`), kept by statement-level triggers on the link tables (cascades included), with
 * GIN indexes, so such a filter is an index condition that combines with the others (bitmap AND).
 * A trigger locks the issues first, then reads the links in a fresh snapshot (each statement of a
 * volatile function takes one), so concurrent edits of one issue's links leave the last writer's
 * array complete.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE issues ADD COLUMN label_ids integer[] NOT NULL DEFAULT '{}', ADD COLUMN assignee_ids integer[] NOT NULL DEFAULT '{}';
    UPDATE issues i SET label_ids = x.ids FROM (SELECT issue_id, array_agg(label_id ORDER BY label_id) AS ids FROM issue_labels GROUP BY issue_id) x WHERE x.issue_id = i.id;
    UPDATE issues i SET assignee_ids = x.ids FROM (SELECT issue_id, array_agg(user_id ORDER BY user_id) AS ids FROM issue_assignees GROUP BY issue_id) x WHERE x.issue_id = i.id;
    CREATE INDEX issues_label_ids_idx ON issues USING gin (label_ids);
    CREATE INDEX issues_assignee_ids_idx ON issues USING gin (assignee_ids);

    CREATE FUNCTION issues_sync_label_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM issues WHERE id IN (SELECT issue_id FROM changed) ORDER BY id FOR UPDATE;
      UPDATE issues i SET label_ids = coalesce((SELECT array_agg(l.label_id ORDER BY l.label_id) FROM issue_labels l WHERE l.issue_id = i.id), '{}')
       WHERE i.id IN (SELECT issue_id FROM changed);
      RETURN NULL;
    END $$;
    CREATE FUNCTION issues_sync_assignee_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM issues WHERE id IN (SELECT issue_id FROM changed) ORDER BY id FOR UPDATE;
      UPDATE issues i SET assignee_ids = coalesce((SELECT array_agg(a.user_id ORDER BY a.user_id) FROM issue_assignees a WHERE a.issue_id = i.id), '{}')
       WHERE i.id IN (SELECT issue_id FROM changed);
      RETURN NULL;
    END $$;
    CREATE TRIGGER issue_labels_added AFTER INSERT ON issue_labels REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION issues_sync_label_ids();
    CREATE TRIGGER issue_labels_removed AFTER DELETE ON issue_labels REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION issues_sync_label_ids();
    CREATE TRIGGER issue_assignees_added AFTER INSERT ON issue_assignees REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION issues_sync_assignee_ids();
    CREATE TRIGGER issue_assignees_removed AFTER DELETE ON issue_assignees REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION issues_sync_assignee_ids();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS issue_labels_added ON issue_labels;
    DROP TRIGGER IF EXISTS issue_labels_removed ON issue_labels;
    DROP TRIGGER IF EXISTS issue_assignees_added ON issue_assignees;
    DROP TRIGGER IF EXISTS issue_assignees_removed ON issue_assignees;
    DROP FUNCTION IF EXISTS issues_sync_label_ids();
    DROP FUNCTION IF EXISTS issues_sync_assignee_ids();
    ALTER TABLE issues DROP COLUMN IF EXISTS label_ids, DROP COLUMN IF EXISTS assignee_ids;
  `);
}
