import { camelize, Camelized } from '../db/rows';

/** An `issues` row as `issueColumns` selects it (dates as `YYYY-MM-DD` strings, timestamps as Dates). */
export interface IssueRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  author_id: number;
  closed_by_id: number | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  due_date: string | null;
  confidential: boolean;
  discussion_locked: boolean | null;
  issue_type: string;
  severity: string;
  milestone_id: number | null;
  weight: number | null;
  epic_id: number | null;
  iteration_id: number | null;
  health_status: string | null;
  relative_position: number | null;
  time_estimate: number;
  total_time_spent: number;
  upvotes: number;
  downvotes: number;
  user_notes_count: number;
  moved_to_id: number | null;
  promoted_to_epic_id: number | null;
}

/** An issue: what the stores return, and what services, policies and serialisers take. */
export type Issue = Camelized<IssueRow>;

/** The domain issue of a row. */
export const issueFromRow: (r: IssueRow) => Issue = camelize;

/** The select list producing `IssueRow`s from `issues` aliased `alias`. */
export function issueColumns(alias = 'i'): string {
  const cols = [
    'id', 'project_id', 'iid', 'title', 'description', 'state', 'author_id', 'closed_by_id', 'closed_at', 'created_at',
    'updated_at', 'confidential', 'discussion_locked', 'issue_type', 'severity', 'milestone_id', 'weight', 'epic_id',
    'iteration_id', 'health_status', 'relative_position', 'time_estimate', 'total_time_spent', 'upvotes', 'downvotes',
    'user_notes_count', 'moved_to_id', 'promoted_to_epic_id',
  ].map((c) => `${alias}.${c}`);
  cols.push(`${alias}.due_date::text AS due_date`);
  return cols.join(', ');
}

/** Issue types the API accepts (`issue_type`). */
export const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** Health statuses (top tier). */
export const HEALTH_STATUSES = ['on_track', 'needs_attention', 'at_risk'] as const;
