import type { Knex } from 'knex';
import { emit } from '@anvil/events';
import type { IssueRow } from '../issues/issue-row';

/** The producer name on every event this service publishes. */
export const PRODUCER = 'work-items';

/** Event types of issues (`work-items.issue.<verb>`). */
export const IssueEvents = {
  created: 'work-items.issue.created',
  updated: 'work-items.issue.updated',
  closed: 'work-items.issue.closed',
  reopened: 'work-items.issue.reopened',
  deleted: 'work-items.issue.deleted',
} as const;

/** Version 1 of the issue events' `data`. */
export interface IssueEventV1 {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  confidential: boolean;
  issue_type: string;
  author_id: number;
  assignee_ids: number[];
  labels: string[];
  milestone_id: number | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** The user whose action produced the event. */
  actor_id: number | null;
  /** Attribute names that changed (updated events). */
  changes?: string[];
}

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
