import type { Knex } from 'knex';

/**
 * Issues with their labels, milestones, assignees, iterations and (thin) epics, and the per-scope
 * internal id counters. Timestamps keep milliseconds, as GitLab's JSON does, so a bound taken
 * from a response compares equal to the stored value. Every list order has a composite index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE internal_ids (
      scope text NOT NULL,
      scope_id integer NOT NULL,
      usage text NOT NULL,
      last_value integer NOT NULL,
      PRIMARY KEY (scope, scope_id, usage)
    );

    CREATE TABLE milestones (
      id serial PRIMARY KEY,
      iid integer NOT NULL,
      project_id integer,
      group_id integer,
      title text NOT NULL,
      description text,
      state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'closed')),
      due_date date,
      start_date date,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      CHECK ((project_id IS NULL) <> (group_id IS NULL))
    );
    CREATE UNIQUE INDEX milestones_project_title_idx ON milestones (project_id, title) WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX milestones_group_title_idx ON milestones (group_id, title) WHERE group_id IS NOT NULL;
    CREATE UNIQUE INDEX milestones_project_iid_idx ON milestones (project_id, iid) WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX milestones_group_iid_idx ON milestones (group_id, iid) WHERE group_id IS NOT NULL;
    CREATE INDEX milestones_title_idx ON milestones (title);

    CREATE TABLE labels (
      id serial PRIMARY KEY,
      title text NOT NULL,
      color text NOT NULL,
      description text,
      project_id integer,
      group_id integer,
      priority integer,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      CHECK ((project_id IS NULL) <> (group_id IS NULL))
    );
    CREATE UNIQUE INDEX labels_project_title_idx ON labels (project_id, title) WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX labels_group_title_idx ON labels (group_id, title) WHERE group_id IS NOT NULL;
    CREATE INDEX labels_title_idx ON labels (title);

    CREATE TABLE iterations (
      id serial PRIMARY KEY,
      iid integer NOT NULL,
      sequence integer NOT NULL DEFAULT 1,
      group_id integer NOT NULL,
      title text,
      description text,
      state integer NOT NULL DEFAULT 1,
      start_date date NOT NULL,
      due_date date NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (group_id, iid)
    );
    CREATE INDEX iterations_title_idx ON iterations (title);

    CREATE TABLE epics (
      id serial PRIMARY KEY,
      iid integer NOT NULL,
      group_id integer NOT NULL,
      title text NOT NULL,
      description text,
      author_id integer NOT NULL,
      state text NOT NULL DEFAULT 'opened',
      confidential boolean NOT NULL DEFAULT false,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (group_id, iid)
    );

    CREATE TABLE issues (
      id serial PRIMARY KEY,
      project_id integer NOT NULL,
      iid integer NOT NULL,
      title text NOT NULL,
      description text,
      state text NOT NULL DEFAULT 'opened' CHECK (state IN ('opened', 'closed')),
      author_id integer NOT NULL,
      closed_by_id integer,
      closed_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      due_date date,
      confidential boolean NOT NULL DEFAULT false,
      discussion_locked boolean,
      issue_type text NOT NULL DEFAULT 'issue',
      severity text NOT NULL DEFAULT 'unknown',
      milestone_id integer REFERENCES milestones (id) ON DELETE SET NULL,
      weight integer,
      epic_id integer REFERENCES epics (id) ON DELETE SET NULL,
      iteration_id integer REFERENCES iterations (id) ON DELETE SET NULL,
      health_status text,
      relative_position integer,
      time_estimate integer NOT NULL DEFAULT 0,
      total_time_spent integer NOT NULL DEFAULT 0,
      upvotes integer NOT NULL DEFAULT 0,
      downvotes integer NOT NULL DEFAULT 0,
      user_notes_count integer NOT NULL DEFAULT 0,
      moved_to_id integer,
      promoted_to_epic_id integer,
      CONSTRAINT issues_project_iid_key UNIQUE (project_id, iid)
    );
    CREATE INDEX issues_project_created_idx ON issues (project_id, created_at, id);
    CREATE INDEX issues_project_updated_idx ON issues (project_id, updated_at, id);
    CREATE INDEX issues_project_state_created_idx ON issues (project_id, state, created_at, id);
    CREATE INDEX issues_created_idx ON issues (created_at, id);
    CREATE INDEX issues_updated_idx ON issues (updated_at, id);
    CREATE INDEX issues_author_created_idx ON issues (author_id, created_at, id);
    CREATE INDEX issues_milestone_idx ON issues (milestone_id) WHERE milestone_id IS NOT NULL;
    CREATE INDEX issues_epic_idx ON issues (epic_id) WHERE epic_id IS NOT NULL;
    CREATE INDEX issues_iteration_idx ON issues (iteration_id) WHERE iteration_id IS NOT NULL;
    CREATE INDEX issues_project_due_date_idx ON issues (project_id, due_date);

    CREATE TABLE issue_assignees (
      issue_id integer NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
      user_id integer NOT NULL,
      PRIMARY KEY (issue_id, user_id)
    );
    CREATE INDEX issue_assignees_user_idx ON issue_assignees (user_id, issue_id);

    CREATE TABLE issue_labels (
      issue_id integer NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
      label_id integer NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
      PRIMARY KEY (issue_id, label_id)
    );
    CREATE INDEX issue_labels_label_idx ON issue_labels (label_id, issue_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS issue_labels, issue_assignees, issues, epics, iterations, labels, milestones, internal_ids');
}
