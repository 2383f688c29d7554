import type { Knex } from 'knex';

/**
 * How many issues carry each label and each assignee, per project, state and confidentiality,
 * so a list filtered by one label or one assignee (and its state) has its `X-Total` from a few
 * rows instead of a walk over up to 10,001 entries of `issue_filter_keys`.
 *
 * The counts follow `issue_filter_keys` (itself rewritten by statement-level triggers on
 * `issues`): each statement on it adds its net changes as rows of `n`, in the writer's
 * transaction. Writers never update a shared row, so they never wait for one another nor
 * deadlock: a count is the sum of its rows. The same statement folds the rows of the keys it
 * touched into one per (key, project, state, confidentiality), skipping rows another
 * transaction is folding (`SKIP LOCKED`), so each key keeps a handful of rows.
 *
 * A partial index on the confidential keys lets a caller who may not see every confidential
 * issue count the ones they authored or are assigned exactly.
 */
const FOLD = (changes: string, sign: number) => `
  WITH touched AS (SELECT DISTINCT kind, key_id, project_id FROM ${changes}),
  folded AS (
    DELETE FROM issue_filter_counts c WHERE c.ctid IN (
      SELECT f.ctid FROM issue_filter_counts f JOIN touched t USING (kind, key_id, project_id) FOR UPDATE OF f SKIP LOCKED)
    RETURNING c.kind, c.key_id, c.project_id, c.state, c.confidential, c.n),
  deltas AS (
    SELECT kind, key_id, project_id, state, confidential, n FROM folded
    UNION ALL SELECT kind, key_id, project_id, state, confidential, ${sign} FROM ${changes})
  INSERT INTO issue_filter_counts (kind, key_id, project_id, state, confidential, n)
  SELECT kind, key_id, project_id, state, confidential, sum(n) FROM deltas GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE issue_filter_counts (
      kind "char" NOT NULL,
      key_id integer NOT NULL,
      project_id integer NOT NULL,
      state text NOT NULL,
      confidential boolean NOT NULL,
      n bigint NOT NULL
    );
    INSERT INTO issue_filter_counts SELECT kind, key_id, project_id, state, confidential, count(*) FROM issue_filter_keys GROUP BY 1, 2, 3, 4, 5;
    CREATE INDEX issue_filter_counts_key_idx ON issue_filter_counts (kind, key_id, project_id, state, confidential) INCLUDE (n);
    CREATE INDEX issue_filter_keys_confidential_idx ON issue_filter_keys (kind, key_id, project_id, state)
      INCLUDE (author_id, assignee_ids) WHERE confidential;

    CREATE FUNCTION issue_filter_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${FOLD('added', 1)};
      RETURN NULL;
    END $$;
    CREATE FUNCTION issue_filter_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${FOLD('removed', -1)};
      RETURN NULL;
    END $$;
    CREATE TRIGGER issue_filter_counts_added AFTER INSERT ON issue_filter_keys REFERENCING NEW TABLE AS added
      FOR EACH STATEMENT EXECUTE FUNCTION issue_filter_counts_added();
    CREATE TRIGGER issue_filter_counts_removed AFTER DELETE ON issue_filter_keys REFERENCING OLD TABLE AS removed
      FOR EACH STATEMENT EXECUTE FUNCTION issue_filter_counts_removed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS issue_filter_counts_added ON issue_filter_keys;
    DROP TRIGGER IF EXISTS issue_filter_counts_removed ON issue_filter_keys;
    DROP FUNCTION IF EXISTS issue_filter_counts_added();
    DROP FUNCTION IF EXISTS issue_filter_counts_removed();
    DROP INDEX IF EXISTS issue_filter_keys_confidential_idx;
    DROP TABLE IF EXISTS issue_filter_counts;
  `);
}
