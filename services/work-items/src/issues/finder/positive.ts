import type { Knex } from 'knex';
import { IssueFilters, isAny, isNone } from './filters';
import type { FilterStep, FinderScope } from './types';
import { dueDateRange } from './dates';
import { fuzzyWords, likeEscape, searchColumns } from './search';

/**
 * Issues carry their assignee and label ids (`assignee_ids`, `label_ids`: GIN-indexed, and in the
 * covering list index), so these filters read the issue row or index entry, never the link tables.
 * A name is matched as `assignee_ids && ARRAY(<its id>)`: the planner then walks the list's ordered
 * index for a page rather than sorting every match (it cannot estimate either form).
 */
const ASSIGNED = 'i.assignee_ids @> ARRAY[?]::int[]';
const ANY_ASSIGNEE = "i.assignee_ids <> '{}'";
const USER_BY_NAME = '(SELECT id FROM users WHERE lower(username) = lower(?) AND NOT deleted)';
const ANY_LABEL = "i.label_ids <> '{}'";
const AWARDED = "EXISTS (SELECT 1 FROM award_emoji e WHERE e.awardable_type = 'Issue' AND e.awardable_id = i.id AND e.user_id = ?";

/** The ids of the next upcoming milestone per project and per group (GitLab's `Milestone.upcoming_ids`). */
export const UPCOMING_MILESTONES = `SELECT DISTINCT ON (project_id, group_id) id FROM milestones
  WHERE state = 'active' AND due_date > ?::date ORDER BY project_id, group_id, due_date`;
/** Open milestones that have started. */
export const STARTED_MILESTONES = `SELECT id FROM milestones WHERE state = 'active' AND start_date <= ?::date`;

const byScope: FilterStep = (q, f, s) => {
  if (f.scope !== 'created_by_me' && f.scope !== 'assigned_to_me') return;
  if (!s.viewer.user) return void q.whereRaw('false');
  if (f.scope === 'created_by_me') q.where('i.author_id', s.viewer.user.id);
  else q.whereRaw(ASSIGNED, [s.viewer.user.id]);
};

const byState: FilterStep = (q, f) => {
  if (f.state === 'opened' || f.state === 'closed') q.where('i.state', f.state);
};

const byTimes: FilterStep = (q, f) => {
  if (f.createdAfter) q.where('i.created_at', '>=', f.createdAfter);
  if (f.createdBefore) q.where('i.created_at', '<=', f.createdBefore);
  if (f.updatedAfter) q.where('i.updated_at', '>=', f.updatedAfter);
  if (f.updatedBefore) q.where('i.updated_at', '<=', f.updatedBefore);
  if (f.closedById !== undefined) q.where('i.closed_by_id', f.closedById);
};

const byAuthor: FilterStep = (q, f) => {
  if (f.authorId !== undefined) q.where('i.author_id', f.authorId);
  else if (f.authorUsername !== undefined) q.whereRaw(`i.author_id = ${USER_BY_NAME}`, [f.authorUsername]);
};

/** Assigned to the user named `name` (none such: no issue). */
function assignedTo(q: Knex.QueryBuilder, name: string, s: FinderScope): void {
  if (!s.names) return void q.whereRaw(`i.assignee_ids && ARRAY${USER_BY_NAME}`, [name]);
  const id = s.names.users.get(name.toLowerCase());
  q.whereRaw('i.assignee_ids && ?::int[]', [id === undefined ? [] : [id]]);
}

const byAssignee: FilterStep = (q, f, s) => {
  if (isNone(f.assigneeId)) q.whereRaw(`NOT ${ANY_ASSIGNEE}`);
  else if (isAny(f.assigneeId)) q.whereRaw(ANY_ASSIGNEE);
  else if (typeof f.assigneeId === 'number') q.whereRaw(ASSIGNED, [f.assigneeId]);
  else if (f.assigneeUsername?.length) {
    const [first] = f.assigneeUsername;
    if (isNone(first)) q.whereRaw(`NOT ${ANY_ASSIGNEE}`);
    else if (isAny(first)) q.whereRaw(ANY_ASSIGNEE);
    else for (const name of f.assigneeUsername) assignedTo(q, name, s);
  }
};

const byIids: FilterStep = (q, f) => {
  if (f.iids?.length) q.whereIn('i.iid', f.iids);
};

const byMilestone: FilterStep = (q, f, s) => {
  const special = f.milestoneId ?? f.milestone;
  if (special === undefined || special === '') return;
  if (isNone(special)) q.whereNull('i.milestone_id');
  else if (isAny(special)) q.whereNotNull('i.milestone_id');
  else if (f.milestoneId?.toLowerCase() === 'upcoming' || f.milestone === '#upcoming') q.whereRaw(`i.milestone_id = ANY(ARRAY(${UPCOMING_MILESTONES}))`, [s.today]);
  else if (f.milestoneId?.toLowerCase() === 'started' || f.milestone === '#started') q.whereRaw(`i.milestone_id = ANY(ARRAY(${STARTED_MILESTONES}))`, [s.today]);
  else q.whereRaw('i.milestone_id = ANY(ARRAY(SELECT id FROM milestones WHERE title = ?))', [f.milestone as string]);
};

/**
 * Label ids (or the `select`ed columns) titled `?` that issues of the list can carry: in a project
 * list only the project's and its ancestor groups' labels (so the planner probes one label, not
 * every project's).
 */
export function labelIdsTitled(s: FinderScope, many = false, select = 'id'): { sql: string; bindings: Knex.Value[] } {
  const title = many ? 'title = ANY(?)' : 'title = ?';
  if (s.parent.kind !== 'project') return { sql: `SELECT ${select} FROM labels WHERE ${title}`, bindings: [] };
  return {
    sql: `SELECT ${select} FROM labels WHERE ${title} AND (project_id = ? OR group_id IN (SELECT unnest(group_traversal_ids) FROM projects WHERE id = ?))`,
    bindings: [s.parent.projectId, s.parent.projectId],
  };
}

const byLabels: FilterStep = (q, f, s) => {
  if (!f.labels?.length) return;
  if (f.labels.some(isNone)) return void q.whereRaw(`NOT ${ANY_LABEL}`);
  if (f.labels.some(isAny)) return void q.whereRaw(ANY_LABEL);
  const ids = labelIdsTitled(s);
  for (const title of new Set(f.labels)) {
    const resolved = s.names?.labels.get(title);
    if (resolved) q.whereRaw('i.label_ids && ?::int[]', [resolved]);
    else q.whereRaw(`i.label_ids && ARRAY(${ids.sql})`, [title, ...ids.bindings]);
  }
};

const byReaction: FilterStep = (q, f, s) => {
  if (f.myReactionEmoji === undefined || !s.viewer.user) return;
  const uid = s.viewer.user.id;
  if (isNone(f.myReactionEmoji)) q.whereRaw(`NOT ${AWARDED})`, [uid]);
  else if (isAny(f.myReactionEmoji)) q.whereRaw(`${AWARDED})`, [uid]);
  else q.whereRaw(`${AWARDED} AND e.name = ?)`, [uid, f.myReactionEmoji]);
};

const byFlags: FilterStep = (q, f, s) => {
  if (f.confidential !== undefined) q.where('i.confidential', f.confidential);
  if (f.issueType) q.where('i.issue_type', f.issueType);
  // resolved projects are unarchived ones already under `non_archived`
  if (f.nonArchived && s.parent.kind !== 'project' && !s.projects) q.where('p.archived', false);
};

const byDueDate: FilterStep = (q, f, s) => {
  if (!f.dueDate) return;
  const r = dueDateRange(f.dueDate, new Date(`${s.today}T12:00:00Z`));
  if (!r) return void q.whereRaw('false');
  if ('none' in r) q.whereNull('i.due_date');
  else if ('any' in r) q.whereNotNull('i.due_date');
  else if ('before' in r) q.where('i.due_date', '<', r.before);
  else q.whereBetween('i.due_date', [r.from, r.to]);
};

/** `None`/`Any`/value on a nullable column. */
function wildcardColumn(q: Knex.QueryBuilder, column: string, value: number | string | undefined): void {
  if (value === undefined) return;
  if (isNone(value)) q.whereNull(column);
  else if (isAny(value)) q.whereNotNull(column);
  else q.where(column, value);
}

const byHigherTier: FilterStep = (q, f, s) => {
  wildcardColumn(q, 'i.weight', f.weight);
  wildcardColumn(q, 'i.epic_id', f.epicId);
  wildcardColumn(q, 'i.health_status', f.healthStatus);
  if (typeof f.iterationId === 'string' && f.iterationId.toLowerCase() === 'current') {
    q.whereRaw('i.iteration_id IN (SELECT id FROM iterations WHERE start_date <= ?::date AND due_date >= ?::date)', [s.today, s.today]);
  } else wildcardColumn(q, 'i.iteration_id', f.iterationId);
  if (f.iterationTitle !== undefined) q.whereRaw('i.iteration_id IN (SELECT id FROM iterations WHERE title = ?)', [f.iterationTitle]);
};

const bySearch: FilterStep = (q, f) => {
  if (!f.search?.trim()) return;
  const cols = searchColumns(f.in);
  const words = fuzzyWords(f.search);
  q.where((w) => {
    for (const col of cols) {
      if (words) w.orWhere((c) => words.forEach((word) => c.whereILike(`i.${col}`, `%${likeEscape(word)}%`)));
      else w.orWhere(`i.${col}`, f.search?.trim().replace(/\s+/g, ' ') as string);
    }
  });
};

/** The positive filter steps, in GitLab's order. */
export const positiveFilters: FilterStep[] = [
  byScope, byState, byTimes, byAuthor, byAssignee, byIids, byMilestone, byLabels, byReaction, byFlags, byDueDate, byHigherTier, bySearch,
];

export type { IssueFilters };
