import { createDb, type Knex } from '@anvil/db';
import type { Fleet } from '@anvil/testing';

/** What a project holds, by relation. */
export type Counts = Record<string, number>;

const n = async (q: Knex.QueryBuilder) => Number(((await q.count({ n: '*' }).first()) as { n: string }).n);

/** The project's issues, notes, labels, milestones, label links, assignees, pipelines, jobs and direct members, read from each service's schema. */
export async function countsOf(fleet: Fleet, databaseUrl: string, projectId: number): Promise<Counts> {
  const open = (service: string) => createDb({ url: databaseUrl, schema: fleet.schemas[service], pool: { min: 0, max: 1 } });
  const [wi, ci, id] = [open('work-items'), open('pipelines'), open('identity')];
  try {
    const issues = wi('issues').where({ project_id: projectId });
    return {
      issues: await n(issues.clone()),
      closed_issues: await n(issues.clone().where({ state: 'closed' })),
      notes: await n(wi('notes').where({ project_id: projectId, noteable_type: 'Issue' })),
      system_notes: await n(wi('notes').where({ project_id: projectId, noteable_type: 'Issue', system: true })),
      labels: await n(wi('labels').where({ project_id: projectId })),
      milestones: await n(wi('milestones').where({ project_id: projectId })),
      label_links: await n(wi('issue_labels as l').join('issues as i', 'i.id', 'l.issue_id').where('i.project_id', projectId)),
      assignees: await n(wi('issue_assignees as a').join('issues as i', 'i.id', 'a.issue_id').where('i.project_id', projectId)),
      pipelines: await n(ci('pipelines').where({ project_id: projectId })),
      jobs: await n(ci('jobs').where({ project_id: projectId })),
      members: await n(id('members').where({ source_type: 'Project', source_id: projectId })),
    };
  } finally {
    await Promise.all([wi.destroy(), ci.destroy(), id.destroy()]);
  }
}
