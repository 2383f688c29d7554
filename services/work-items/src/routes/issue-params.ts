import type { Request } from 'express';
import { Infer, p, ParamError, params, requestInput } from '@anvil/http';
import type { IssueAttributes } from '../issues/issue-attributes';
import { HEALTH_STATUSES, ISSUE_TYPES } from '../issues/issue-row';

/** `issue_params` shared by create and update (GitLab's, plus the higher-tier ones). */
const shared = {
  description: p.string(),
  assignee_ids: p.array(p.integer()),
  assignee_id: p.integer(),
  milestone_id: p.integer(),
  milestone: p.string(),
  labels: p.list(),
  add_labels: p.list(),
  remove_labels: p.list(),
  due_date: p.string(),
  confidential: p.boolean(),
  discussion_locked: p.boolean(),
  issue_type: p.enum(ISSUE_TYPES),
  weight: p.integer(),
  epic_id: p.integer(),
  epic_iid: p.integer(),
  iteration_id: p.integer(),
  health_status: p.enum(HEALTH_STATUSES),
};

const exclusive = [['milestone_id', 'milestone'], ['epic_id', 'epic_iid']];

/** POST /projects/:id/issues. */
export const createIssueParams = params({
  ...shared,
  title: p.string().required(),
  created_at: p.datetime(),
  iid: p.integer(),
}, { mutuallyExclusive: exclusive });

const UPDATE_ONE_OF = [
  'assignee_id', 'assignee_ids', 'confidential', 'created_at', 'description', 'discussion_locked', 'due_date', 'labels',
  'add_labels', 'remove_labels', 'milestone_id', 'state_event', 'title', 'issue_type', 'weight', 'epic_id', 'epic_iid',
  'milestone', 'iteration_id', 'health_status', 'updated_at',
];

const updateSchema = params({
  ...shared,
  issue_iid: p.integer().required(),
  title: p.string(),
  updated_at: p.datetime(),
  created_at: p.datetime(),
  state_event: p.enum(['reopen', 'close'] as const),
}, { mutuallyExclusive: exclusive });

/**
 * PUT /projects/:id/issues/:issue_iid. Like Grape's `at_least_one_of`, a key counts as given
 * even when its value is blank (`labels=` clears the labels).
 */
export const updateIssueParams = {
  parse(req: Request): ReturnType<typeof updateSchema.parse> {
    const input = requestInput(req);
    if (!UPDATE_ONE_OF.some((k) => k in input)) throw new ParamError(`${UPDATE_ONE_OF.join(', ')} are missing, at least one parameter must be provided`);
    return updateSchema.parse(req);
  },
};

type Shared = Partial<Infer<typeof shared>> & { title?: string; created_at?: Date; updated_at?: Date; iid?: number; state_event?: 'reopen' | 'close' };

function assignees(input: Shared): number[] | undefined {
  if (input.assignee_ids !== undefined) return input.assignee_ids ?? [];
  if (input.assignee_id !== undefined) return input.assignee_id ? [input.assignee_id] : [];
  return undefined;
}

/** Maps validated params to domain attributes (null means "clear"; absent means "leave"). */
export function toAttributes(input: Shared): IssueAttributes {
  const a: IssueAttributes = {
    title: input.title,
    description: input.description,
    assigneeIds: assignees(input),
    milestoneId: input.milestone_id,
    milestoneTitle: input.milestone ?? undefined,
    labels: input.labels === null ? [] : input.labels,
    addLabels: input.add_labels ?? undefined,
    removeLabels: input.remove_labels ?? undefined,
    dueDate: input.due_date,
    confidential: input.confidential ?? undefined,
    discussionLocked: input.discussion_locked ?? undefined,
    issueType: input.issue_type ?? undefined,
    weight: input.weight,
    epicId: input.epic_id,
    epicIid: input.epic_iid ?? undefined,
    iterationId: input.iteration_id,
    healthStatus: input.health_status,
    createdAt: input.created_at ?? undefined,
    updatedAt: input.updated_at ?? undefined,
    iid: input.iid ?? undefined,
    stateEvent: input.state_event ?? undefined,
  };
  for (const k of Object.keys(a) as (keyof IssueAttributes)[]) if (a[k] === undefined) delete a[k];
  return a;
}
