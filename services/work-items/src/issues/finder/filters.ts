/** `None`/`Any` wildcards accepted by several filters. */
export type Wildcard = 'None' | 'Any';

/** Filters that `not[...]` negates. */
export interface NegatedFilters {
  labels?: string[];
  milestone?: string;
  milestoneId?: string;
  iids?: number[];
  authorId?: number;
  authorUsername?: string;
  assigneeId?: number;
  assigneeUsername?: string[];
  myReactionEmoji?: string;
  weight?: number;
  iterationId?: number | string;
  iterationTitle?: string;
  epicId?: number;
  healthStatus?: string;
}

/** Every filter of GitLab's issue lists, validated at the route and named in camelCase. */
export interface IssueFilters extends Omit<NegatedFilters, 'assigneeId' | 'weight' | 'epicId' | 'iterationId'> {
  scope?: 'created_by_me' | 'assigned_to_me' | 'all';
  state?: 'opened' | 'closed' | 'all';
  search?: string;
  in?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  closedById?: number;
  assigneeId?: number | Wildcard;
  confidential?: boolean;
  dueDate?: string;
  issueType?: string;
  nonArchived?: boolean;
  weight?: number | Wildcard;
  epicId?: number | Wildcard;
  iterationId?: number | 'None' | 'Any' | 'Current';
  not?: NegatedFilters;
  orderBy?: string;
  sort?: 'asc' | 'desc';
}

/** Sort fields of the lists (`order_by`); `weight` is higher tier. */
export const ORDER_BY = ['created_at', 'updated_at', 'priority', 'due_date', 'relative_position', 'label_priority', 'milestone_due', 'popularity', 'title', 'weight'] as const;

/** `due_date` filter values. */
export const DUE_DATE_VALUES = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks', ''] as const;

/** True for GitLab's case-insensitive `None` (and the deprecated `No Label`/`No+Label`). */
export function isNone(v: unknown): boolean {
  return typeof v === 'string' && ['none', 'no label', 'no+label', 'no milestone'].includes(v.toLowerCase());
}

/** True for GitLab's case-insensitive `Any`. */
export function isAny(v: unknown): boolean {
  return typeof v === 'string' && ['any', 'any label', 'any milestone'].includes(v.toLowerCase());
}
