import type { Knex } from 'knex';

/**
 * Found with EXPLAIN (ANALYZE, BUFFERS) under the issues benchmark: the count (up to 10,001) of a
 * list filtered by label or assignee walked every opened issue of a project in the list index (or,
 * through the label's GIN index, every heap page of the project). `issue_filter_keys` holds one row
 * per issue and label (`kind` 'l') and per issue and assignee ('a'), copying what the list
 * conditions read from the issue (project, state, creation time, confidentiality, author,
 * milestone, label and assignee ids) under the column names, in a btree keyed by the label
 * or assignee, project, state and creation time: such a count is an index-only scan over the
 * matches alone. The rows derive from the issue row only (whose `label_ids` and `assignee_ids` the
 * link-table triggers keep), rewritten by statement-level triggers on `issues` when one of those
 * columns changes, so they follow every write, cascades included, in the writer's transaction.
 * The milestone index carries what group and instance lists test besides (confidentiality,
 * author, assignees), so their milestone counts are index-only too.
 */
/** The key rows of the issues `FROM` aliases `i` (a table or transition table), ready to insert. */
const KEYS_OF_I = `SELECT k.kind, k.key_id, i.id, i.project_id, i.state, i.created_at, i.confidential, i.author_id, i.milestone_id, i.label_ids, i.assignee_ids
  FROM %s i, LATERAL (SELECT 'l'::"char", unnest(i.label_ids) UNION ALL SELECT 'a'::"char", unnest(i.assignee_ids)) k (kind, key_id)`;

/** The issues an update changed in a column the keys copy (transition tables `before_rows`, `after_rows`). */
const CHANGED = `(SELECT n.* FROM after_rows n JOIN before_rows o ON o.id = n.id
  WHERE (o.project_id, o.state, o.created_at, o.confidential, o.author_id, o.milestone_id, o.label_ids, o.assignee_ids)
        IS DISTINCT FROM (n.project_id, n.state, n.created_at, n.confidential, n.author_id, n.milestone_id, n.label_ids, n.assignee_ids))`;

const keysOf = (from: string) => KEYS_OF_I.replace('%s', from);

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE issue_filter_keys (
      kind "char" NOT NULL CHECK (kind IN ('l', 'a')),
      key_id integer NOT NULL,
      id integer NOT NULL,
      project_id integer NOT NULL,
      state text NOT NULL,
      created_at timestamptz(3) NOT NULL,
      confidential boolean NOT NULL,
      author_id integer NOT NULL,
      milestone_id integer,
      label_ids integer[] NOT NULL,
      assignee_ids integer[] NOT NULL,
      PRIMARY KEY (id, kind, key_id)
    );
    INSERT INTO issue_filter_keys ${keysOf('issues')};
    CREATE INDEX issue_filter_keys_list_idx ON issue_filter_keys (kind, key_id, project_id, state, created_at, id)
      INCLUDE (confidential, author_id, milestone_id, label_ids, assignee_ids);

    CREATE FUNCTION issue_filter_keys_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO issue_filter_keys ${keysOf('added')};
      RETURN NULL;
    END $$;
    CREATE FUNCTION issue_filter_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM issue_filter_keys WHERE id IN (SELECT id FROM ${CHANGED} c);
      INSERT INTO issue_filter_keys ${keysOf(CHANGED)};
      RETURN NULL;
    END $$;
    CREATE FUNCTION issue_filter_keys_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM issue_filter_keys WHERE id IN (SELECT id FROM removed);
      RETURN NULL;
    END $$;
    CREATE TRIGGER issue_filter_keys_added AFTER INSERT ON issues REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION issue_filter_keys_added();
    CREATE TRIGGER issue_filter_keys_changed AFTER UPDATE ON issues REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
      FOR EACH STATEMENT EXECUTE FUNCTION issue_filter_keys_changed();
    CREATE TRIGGER issue_filter_keys_removed AFTER DELETE ON issues REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION issue_filter_keys_removed();

    CREATE INDEX issues_project_milestone_state_list_idx ON issues (project_id, milestone_id, state) INCLUDE (confidential, author_id, assignee_ids);
    DROP INDEX IF EXISTS issues_project_milestone_state_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS issue_filter_keys_added ON issues;
    DROP TRIGGER IF EXISTS issue_filter_keys_changed ON issues;
    DROP TRIGGER IF EXISTS issue_filter_keys_removed ON issues;
    DROP FUNCTION IF EXISTS issue_filter_keys_added();
    DROP FUNCTION IF EXISTS issue_filter_keys_changed();
    DROP FUNCTION IF EXISTS issue_filter_keys_removed();
    DROP TABLE IF EXISTS issue_filter_keys;
    CREATE INDEX IF NOT EXISTS issues_project_milestone_state_idx ON issues (project_id, milestone_id, state);
    DROP INDEX IF EXISTS issues_project_milestone_state_list_idx;
  `);
}
