import type { Knex } from 'knex';
import { ISSUE_ADMIN_LEVEL, memberOr, readableProjects, Viewer } from '../../access/viewer';
import { FilterKey, filterKey } from './filter-keys';
import { IssueFilters, isAny, isNone, NegatedFilters } from './filters';
import type { FinderParent, ResolvedNames, ResolvedProjects } from './types';

/** The filters a count from `issue_filter_counts` answers exactly: one key, its state, the list's projects. */
const COUNTED: ReadonlySet<string> = new Set(['scope', 'state', 'labels', 'assigneeId', 'assigneeUsername', 'milestone', 'nonArchived', 'orderBy', 'sort']);

/** A counted key: a label or assignee (`filterKey`), or the milestones titled `title` (kind 'm'; an issue has one). */
export type CounterKey = FilterKey | { kind: 'm'; title: string };

const present = (v: unknown) => v !== undefined && !(Array.isArray(v) && v.length === 0);

/**
 * The key whose counters give this list's total: exactly one label title or one assignee names a
 * key (see `filterKey`), or one milestone title does, with at most the state, `scope=all` and
 * `non_archived` besides. Null otherwise: the list is counted from its rows.
 */
export function counterKey(f: IssueFilters, viewer: Viewer, names: ResolvedNames | undefined): CounterKey | null {
  for (const [k, v] of Object.entries(f)) if (present(v) && !COUNTED.has(k)) return null;
  if (Object.values(f.not ?? ({} as NegatedFilters)).some(present)) return null;
  if (f.scope !== undefined && f.scope !== 'all') return null;
  const labels = new Set(f.labels ?? []).size;
  const assignees = (f.assigneeUsername ?? []).length;
  const byAssignee = f.assigneeId !== undefined || assignees > 0;
  const milestone = f.milestone !== undefined && f.milestone !== '';
  if (labels + (byAssignee ? 1 : 0) + (milestone ? 1 : 0) !== 1 || assignees > 1) return null;
  if (milestone) {
    const title = f.milestone as string;
    return isNone(title) || isAny(title) || title === '#upcoming' || title === '#started' ? null : { kind: 'm', title };
  }
  return filterKey(f, viewer, names);
}

/**
 * How many issues of the list carry `key`, exactly, from the counters: the sum of the key's rows
 * over the list's readable projects and state, confidential rows included where the viewer sees
 * every confidential issue (administrator, Planner/Reporter+ on the project); elsewhere the
 * confidential issues they authored or are assigned are counted from the keys' partial index (a
 * milestone's from the milestone index of `issues`). With `projects` resolved (a group or instance
 * list, `IssueFinder.resolveProjects`) the list's projects and the viewer's Reporter+ ones are bound
 * id arrays.
 */
export async function countFromCounters(knex: Knex, viewer: Viewer, parent: FinderParent, f: IssueFilters, key: CounterKey, run: <T>(q: Knex.QueryBuilder) => Promise<T[]>, projects?: ResolvedProjects): Promise<number> {
  const state = f.state === 'opened' || f.state === 'closed' ? f.state : null;
  const MILESTONES = 'ANY(ARRAY(SELECT id FROM milestones WHERE title = ?))';
  /** The key's rows of the counters (`c`), or of the table the confidential ones are counted from (`k`). */
  const keyed = (q: Knex.QueryBuilder, alias: string) => {
    const counters = alias === 'c';
    if (counters || key.kind !== 'm') q.where(`${alias}.kind`, key.kind);
    if (key.kind === 'm') q.whereRaw(`${alias}.${counters ? 'key_id' : 'milestone_id'} = ${MILESTONES}`, [key.title]);
    else q.whereRaw(`${alias}.key_id = ANY(?::int[])`, [key.ids]);
    if (state) q.where(`${alias}.state`, state);
    return q;
  };
  const inList = (q: Knex.QueryBuilder, alias: string) => {
    if (parent.kind === 'project') return q.where(`${alias}.project_id`, parent.projectId);
    if (projects) return q.whereRaw(`${alias}.project_id = ANY(?::int[])`, [projects.ids]);
    q.join('projects as p', 'p.id', `${alias}.project_id`).where('p.deleted', false);
    if (parent.kind === 'group') q.whereRaw('p.group_traversal_ids @> ARRAY[?]::int[]', [parent.groupId]);
    if (f.nonArchived) q.where('p.archived', false);
    return q.whereRaw('?', [readableProjects(knex, viewer, 'p')]);
  };
  const uid = viewer.user?.id;
  const seesAll = viewer.admin || (parent.kind === 'project' && parent.level >= ISSUE_ADMIN_LEVEL) || (!!projects && projects.reporter.length === projects.ids.length);
  const reporter = (alias: string) => {
    if (parent.kind === 'project') return knex.raw('false');
    if (projects) return knex.raw(`${alias}.project_id = ANY(?::int[])`, [projects.reporter]);
    return memberOr(knex, uid as number, 'p', ISSUE_ADMIN_LEVEL);
  };

  const counted = keyed(inList(knex('issue_filter_counts as c'), 'c'), 'c').select(knex.raw('coalesce(sum(c.n), 0)::bigint AS n'));
  if (!seesAll) counted.whereRaw(uid === undefined ? 'NOT c.confidential' : '(NOT c.confidential OR ?)', uid === undefined ? [] : [reporter('c')]);
  const sums: Knex.QueryBuilder[] = [counted];
  if (!seesAll && uid !== undefined) {
    const own = keyed(inList(knex(key.kind === 'm' ? 'issues as k' : 'issue_filter_keys as k'), 'k'), 'k').where('k.confidential', true)
      .whereRaw('(k.author_id = ? OR k.assignee_ids @> ARRAY[?]::int[])', [uid, uid]).select(knex.raw('count(*)::bigint AS n'));
    if (parent.kind !== 'project') own.whereRaw('NOT ?', [reporter('k')]);
    sums.push(own);
  }
  const q = knex.queryBuilder().select(knex.raw(sums.map(() => '(?)').join(' + ') + ' AS n', sums));
  const [row] = await run<{ n: string }>(q);
  return Number(row.n);
}
