import type { Knex } from 'knex';

/**
 * Thin merge requests: enough to relate them to issues (`mentions`) and to close issues on merge
 * (`closes`, from GitLab's closing pattern in the description).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE merge_requests (
      id serial PRIMARY KEY,
      project_id integer NOT NULL,
      iid integer NOT NULL,
      title text NOT NULL,
      description text,
      state text NOT NULL DEFAULT 'opened' CHECK (state IN ('opened', 'closed', 'merged', 'locked')),
      author_id integer NOT NULL,
      source_branch text NOT NULL,
      target_branch text NOT NULL,
      source_project_id integer NOT NULL,
      milestone_id integer REFERENCES milestones (id) ON DELETE SET NULL,
      draft boolean NOT NULL DEFAULT false,
      squash boolean NOT NULL DEFAULT false,
      remove_source_branch boolean,
      discussion_locked boolean,
      sha text,
      merge_commit_sha text,
      closed_by_id integer,
      closed_at timestamptz(3),
      merged_by_id integer,
      merged_at timestamptz(3),
      user_notes_count integer NOT NULL DEFAULT 0,
      upvotes integer NOT NULL DEFAULT 0,
      downvotes integer NOT NULL DEFAULT 0,
      time_estimate integer NOT NULL DEFAULT 0,
      total_time_spent integer NOT NULL DEFAULT 0,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      CONSTRAINT merge_requests_project_iid_key UNIQUE (project_id, iid)
    );
    CREATE INDEX merge_requests_project_created_idx ON merge_requests (project_id, created_at, id);

    CREATE TABLE merge_request_assignees (
      merge_request_id integer NOT NULL REFERENCES merge_requests (id) ON DELETE CASCADE,
      user_id integer NOT NULL,
      PRIMARY KEY (merge_request_id, user_id)
    );

    CREATE TABLE merge_request_labels (
      merge_request_id integer NOT NULL REFERENCES merge_requests (id) ON DELETE CASCADE,
      label_id integer NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
      PRIMARY KEY (merge_request_id, label_id)
    );

    CREATE TABLE merge_request_issues (
      merge_request_id integer NOT NULL REFERENCES merge_requests (id) ON DELETE CASCADE,
      issue_id integer NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
      link_type text NOT NULL CHECK (link_type IN ('closes', 'mentions')),
      PRIMARY KEY (merge_request_id, issue_id)
    );
    CREATE INDEX merge_request_issues_issue_idx ON merge_request_issues (issue_id, link_type);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS merge_request_issues, merge_request_labels, merge_request_assignees, merge_requests');
}
