import type { Knex } from 'knex';
import { emit, IssueEvents, type IssueEventV1 } from '@anvil/events';
import type { IssueRow } from '../issues/issue-row';

/** The producer name on every event this service publishes. */
export const PRODUCER = 'work-items';

export { IssueEvents, type IssueEventV1 } from '@anvil/events';

/** The event payload of an issue. */
export function issuePayload(row: IssueRow, extra: { assigneeIds: number[]; labels: string[]; actorId: number | null; changes?: string[] }): IssueEventV1 {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    confidential: row.confidential,
    issue_type: row.issue_type,
    author_id: row.author_id,
    assignee_ids: extra.assigneeIds,
    labels: extra.labels,
    milestone_id: row.milestone_id,
    due_date: row.due_date,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    closed_at: row.closed_at ? new Date(row.closed_at).toISOString() : null,
    actor_id: extra.actorId,
    ...(extra.changes ? { changes: extra.changes } : {}),
  };
}

/** Writes an issue event to the outbox in the caller's transaction. */
export async function emitIssueEvent(trx: Knex.Transaction, type: (typeof IssueEvents)[keyof typeof IssueEvents], data: IssueEventV1): Promise<void> {
  await emit(trx, PRODUCER, type, data);
}
