import type { Knex } from 'knex';

/**
 * The list index by project, state and creation time carries what the lists test besides (label
 * and assignee ids, confidentiality, author), so a count that walks a project's issues, and the
 * confidential-issue check of group and instance lists, read the index alone (index-only scans,
 * no heap fetch once the visibility map is set) and stop after 10,001 matches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX issues_project_state_list_idx ON issues (project_id, state, created_at, id)
      INCLUDE (label_ids, assignee_ids, confidential, author_id);
    DROP INDEX IF EXISTS issues_project_state_created_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX issues_project_state_created_idx ON issues (project_id, state, created_at, id);
    DROP INDEX IF EXISTS issues_project_state_list_idx;
  `);
}
