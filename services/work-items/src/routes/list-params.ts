import { p, Param, params } from '@anvil/http';
import { HEALTH_STATUSES, ISSUE_TYPES } from '../issues/issue-row';
import { DUE_DATE_VALUES, IssueFilters, NegatedFilters, ORDER_BY } from '../issues/finder/filters';

/** An integer or one of `custom` (case-insensitive), with GitLab's `IntegerOrCustomValue` message. */
function intOr(custom: string[]): Param<number | string> {
  return new Param<number | string>((v, name, errs) => {
    const raw = Array.isArray(v) && v.length === 1 ? v[0] : v;
    if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
    if (typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) return Number(raw);
    const hit = custom.find((c) => c.toLowerCase() === String(raw).toLowerCase());
    if (hit) return hit;
    const options = `an integer, ${custom.slice(0, -1).map((c) => c.toLowerCase()).join(', ')}, or ${custom[custom.length - 1].toLowerCase()}`;
    errs.push(`${name} should be ${options}, however got ${String(raw)}`);
    return undefined as unknown as number;
  });
}

/** `assignee_username`: an array, or one string taken whole (no comma splitting); one value only (CE). */
function singleUsername(): Param<string[]> {
  return new Param<string[]>((v, name, errs) => {
    const list = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
    if (list.length > 1) errs.push(`${name} allows one value, but found ${list.length}: ${list.join(', ')}`);
    return list;
  });
}

const negatable = {
  labels: p.list(),
  milestone: p.string(),
  milestone_id: p.enum(['Any', 'None', 'Upcoming', 'Started'] as const),
  iids: p.array(p.integer()),
  author_id: p.integer(),
  author_username: p.string(),
  assignee_id: p.integer(),
  assignee_username: singleUsername(),
  my_reaction_emoji: p.string(),
  weight: p.integer(),
  iteration_id: intOr(['None', 'Any', 'Current']),
  iteration_title: p.string(),
  epic_id: p.integer(),
  health_status: p.string(),
  search: p.string(),
  in: p.string(),
};

const common = {
  with_labels_details: p.boolean().default(false),
  state: p.enum(['opened', 'closed', 'all'] as const).default('all'),
  closed_by_id: p.integer(),
  order_by: p.enum(ORDER_BY).default('created_at'),
  sort: p.enum(['asc', 'desc'] as const).default('desc'),
  due_date: p.enum(DUE_DATE_VALUES),
  issue_type: p.enum(ISSUE_TYPES),
  labels: p.list(),
  milestone: p.string(),
  milestone_id: p.enum(['Any', 'None', 'Upcoming', 'Started'] as const),
  iids: p.array(p.integer()),
  search: p.string(),
  in: p.string(),
  author_id: p.integer(),
  author_username: p.string(),
  assignee_id: intOr(['None', 'Any']),
  assignee_username: singleUsername(),
  created_after: p.datetime(),
  created_before: p.datetime(),
  updated_after: p.datetime(),
  updated_before: p.datetime(),
  not: p.hash(negatable),
  scope: p.enum(['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const),
  my_reaction_emoji: p.string(),
  confidential: p.boolean(),
  weight: intOr(['None', 'Any']),
  epic_id: intOr(['None', 'Any']),
  health_status: p.enum(['none', 'any', ...HEALTH_STATUSES], true),
  iteration_id: intOr(['None', 'Any', 'Current']),
  iteration_title: p.string(),
};

const rules = {
  mutuallyExclusive: [['milestone_id', 'milestone'], ['author_id', 'author_username'], ['assignee_id', 'assignee_username'], ['iteration_id', 'iteration_title']],
};

/** GET /projects/:id/issues. */
export const projectListParams = params(common, rules);
/** GET /groups/:id/issues (adds `non_archived`, default true). */
export const groupListParams = params({ ...common, non_archived: p.boolean().default(true) }, rules);
/** GET /issues (adds `non_archived`; `scope` defaults to `created_by_me`). */
export const globalListParams = params({ ...common, non_archived: p.boolean().default(true), scope: common.scope.default('created_by_me') }, rules);

type Input = ReturnType<typeof groupListParams.parse>;
type NotInput = NonNullable<Input['not']>;

function negated(n: NotInput | undefined | null): NegatedFilters | undefined {
  if (!n) return undefined;
  return {
    labels: n.labels ?? undefined, milestone: n.milestone ?? undefined, milestoneId: n.milestone_id ?? undefined, iids: n.iids ?? undefined,
    authorId: n.author_id ?? undefined, authorUsername: n.author_username ?? undefined, assigneeId: n.assignee_id ?? undefined,
    assigneeUsername: n.assignee_username ?? undefined, myReactionEmoji: n.my_reaction_emoji ?? undefined, weight: n.weight ?? undefined,
    iterationId: n.iteration_id ?? undefined, iterationTitle: n.iteration_title ?? undefined, epicId: n.epic_id ?? undefined,
    healthStatus: n.health_status?.toLowerCase() ?? undefined,
  };
}

/** Maps validated list params to finder filters (`created-by-me` → `created_by_me`). */
export function toFilters(input: Partial<Input>): IssueFilters {
  return {
    scope: input.scope?.replace(/-/g, '_') as IssueFilters['scope'], state: input.state, search: input.search ?? undefined, in: input.in ?? undefined,
    createdAfter: input.created_after ?? undefined, createdBefore: input.created_before ?? undefined,
    updatedAfter: input.updated_after ?? undefined, updatedBefore: input.updated_before ?? undefined, closedById: input.closed_by_id ?? undefined,
    authorId: input.author_id ?? undefined, authorUsername: input.author_username ?? undefined,
    assigneeId: (input.assignee_id ?? undefined) as IssueFilters['assigneeId'], assigneeUsername: input.assignee_username ?? undefined,
    iids: input.iids ?? undefined, labels: input.labels ?? undefined, milestone: input.milestone ?? undefined, milestoneId: input.milestone_id ?? undefined,
    myReactionEmoji: input.my_reaction_emoji ?? undefined, confidential: input.confidential ?? undefined, dueDate: input.due_date ?? undefined,
    issueType: input.issue_type ?? undefined, nonArchived: input.non_archived ?? undefined,
    weight: (input.weight ?? undefined) as IssueFilters['weight'], epicId: (input.epic_id ?? undefined) as IssueFilters['epicId'],
    iterationId: (input.iteration_id ?? undefined) as IssueFilters['iterationId'], iterationTitle: input.iteration_title ?? undefined,
    healthStatus: input.health_status?.toLowerCase() ?? undefined, not: negated(input.not), orderBy: input.order_by, sort: input.sort,
  };
}
