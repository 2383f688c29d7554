import type { Knex } from 'knex';

/**
 * Found with EXPLAIN under the issues benchmark: a milestone filter within a project (and its
 * count) is an index-only scan on (project_id, milestone_id, state); the milestone-only index
 * made the planner walk every project's issues of a milestone title instead, so it goes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX issues_project_milestone_state_idx ON issues (project_id, milestone_id, state);
    DROP INDEX IF EXISTS issues_milestone_idx;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX issues_milestone_idx ON issues (milestone_id) WHERE milestone_id IS NOT NULL;
    DROP INDEX IF EXISTS issues_project_milestone_state_idx;
  `);
}
