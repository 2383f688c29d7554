import type { Knex } from 'knex';
import { emit, IssueEvents, type IssueEventV1 } from '@anvil/events';
import { timestamps } from '../entities/timestamps';
import type { Issue } from '../issues/issue-row';

/** The producer name on every event this service publishes. */
export const PRODUCER = 'work-items';

export { IssueEvents, type IssueEventV1 } from '@anvil/events';

/** The event payload of an issue. */
export function issuePayload(row: Issue, extra: { assigneeIds: number[]; labels: string[]; actorId: number | null; changes?: string[] }): IssueEventV1 {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.projectId,
    title: row.title,
    description: row.description,
    state: row.state,
    confidential: row.confidential,
    issue_type: row.issueType,
    author_id: row.authorId,
    assignee_ids: extra.assigneeIds,
    labels: extra.labels,
    milestone_id: row.milestoneId,
    due_date: row.dueDate,
    ...timestamps(row),
    closed_at: row.closedAt ? row.closedAt.toISOString() : null,
    actor_id: extra.actorId,
    ...(extra.changes ? { changes: extra.changes } : {}),
  };
}

/** Writes an issue event to the outbox in the caller's transaction. */
export async function emitIssueEvent(trx: Knex.Transaction, type: (typeof IssueEvents)[keyof typeof IssueEvents], data: IssueEventV1): Promise<void> {
  await emit(trx, PRODUCER, type, data);
}
