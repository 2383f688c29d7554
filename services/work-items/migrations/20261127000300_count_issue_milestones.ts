import type { Knex } from 'knex';

/**
 * Milestones join the counters of `issue_filter_counts` as kind 'm' (key: the milestone id), kept
 * by statement-level triggers on `issues` the same way as the label and assignee counts (net
 * changes appended, the touched keys' rows folded, `SKIP LOCKED`), so a list filtered by one
 * milestone title has its `X-Total` from a few rows.
 */
const CHANGED = `(o.project_id, o.state, o.confidential, o.milestone_id) IS DISTINCT FROM (n.project_id, n.state, n.confidential, n.milestone_id)`;

const rowsOf = (from: string, sign: number, alias = 'i') =>
  `SELECT 'm'::"char" AS kind, ${alias}.milestone_id AS key_id, ${alias}.project_id, ${alias}.state, ${alias}.confidential, ${sign} AS n FROM ${from} WHERE ${alias}.milestone_id IS NOT NULL`;

const fold = (changes: string) => `
  WITH changes AS (${changes}),
  touched AS (SELECT DISTINCT kind, key_id, project_id FROM changes),
  folded AS (
    DELETE FROM issue_filter_counts c WHERE c.ctid IN (
      SELECT f.ctid FROM issue_filter_counts f JOIN touched t USING (kind, key_id, project_id) FOR UPDATE OF f SKIP LOCKED)
    RETURNING c.kind, c.key_id, c.project_id, c.state, c.confidential, c.n),
  deltas AS (
    SELECT kind, key_id, project_id, state, confidential, n FROM folded
    UNION ALL SELECT kind, key_id, project_id, state, confidential, n FROM changes)
  INSERT INTO issue_filter_counts (kind, key_id, project_id, state, confidential, n)
  SELECT kind, key_id, project_id, state, confidential, sum(n) FROM deltas GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    INSERT INTO issue_filter_counts SELECT kind, key_id, project_id, state, confidential, count(*) FROM (${rowsOf('issues i', 1)}) m GROUP BY 1, 2, 3, 4, 5;

    CREATE FUNCTION issue_milestone_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${fold(rowsOf('added i', 1))};
      RETURN NULL;
    END $$;
    CREATE FUNCTION issue_milestone_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${fold(`${rowsOf(`before_rows o JOIN after_rows n USING (id)`, -1, 'o')} AND ${CHANGED}
        UNION ALL ${rowsOf(`before_rows o JOIN after_rows n USING (id)`, 1, 'n')} AND ${CHANGED}`)};
      RETURN NULL;
    END $$;
    CREATE FUNCTION issue_milestone_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${fold(rowsOf('removed i', -1))};
      RETURN NULL;
    END $$;
    CREATE TRIGGER issue_milestone_counts_added AFTER INSERT ON issues REFERENCING NEW TABLE AS added
      FOR EACH STATEMENT EXECUTE FUNCTION issue_milestone_counts_added();
    CREATE TRIGGER issue_milestone_counts_changed AFTER UPDATE ON issues REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
      FOR EACH STATEMENT EXECUTE FUNCTION issue_milestone_counts_changed();
    CREATE TRIGGER issue_milestone_counts_removed AFTER DELETE ON issues REFERENCING OLD TABLE AS removed
      FOR EACH STATEMENT EXECUTE FUNCTION issue_milestone_counts_removed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS issue_milestone_counts_added ON issues;
    DROP TRIGGER IF EXISTS issue_milestone_counts_changed ON issues;
    DROP TRIGGER IF EXISTS issue_milestone_counts_removed ON issues;
    DROP FUNCTION IF EXISTS issue_milestone_counts_added();
    DROP FUNCTION IF EXISTS issue_milestone_counts_changed();
    DROP FUNCTION IF EXISTS issue_milestone_counts_removed();
    DELETE FROM issue_filter_counts WHERE kind = 'm';
  `);
}
