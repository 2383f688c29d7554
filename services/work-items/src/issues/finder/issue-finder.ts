import type { Knex } from 'knex';
import { queryPrepared } from '@anvil/db';
import { confidentialVisible, ISSUE_ADMIN_LEVEL, memberOr, readableProjects, Viewer } from '../../access/viewer';
import { issueColumns } from '../issue-row';
import { IssueFilters, isAny, isNone } from './filters';
import { negatedFilters } from './negations';
import { labelIdsTitled, positiveFilters } from './positive';
import { applyOrder } from './sort';
import { filterKey } from './filter-keys';
import { counterKey, countFromCounters } from './filter-counts';
import type { FinderParent, FinderScope, ResolvedNames, ResolvedProjects } from './types';

export type { FilterStep, FinderParent, FinderScope } from './types';

/**
 * At most this many projects are looked up for a group or instance list (`resolveProjects`); a
 * viewer reading more keeps the visibility subqueries in the list's statements.
 */
export const RESOLVED_PROJECTS_MAX = 1000;

/** Live users by lower-cased username (prepared: it runs on every list filtered by assignee). */
const USERS_NAMED = 'SELECT id, username FROM users WHERE lower(username) = ANY(?) AND NOT deleted';

/** GitLab's issue statistics: how many of the filtered issues there are, in all and per state. */
export interface IssueStateCounts {
  all: number;
  closed: number;
  opened: number;
}

/**
 * GitLab's `IssuesFinder`: the issues `viewer` may see under `parent` (readable projects only,
 * confidential issues only for their author, assignees and Planner/Reporter+ members), narrowed
 * by every filter of the lists and their `not[...]` negations, ordered by `order_by`/`sort`
 * with the id as tie-breaker. Every lookup is a subquery, so the list is one statement.
 */
export class IssueFinder {
  private names?: ResolvedNames;
  private projects?: ResolvedProjects;

  constructor(
    private readonly knex: Knex,
    private readonly viewer: Viewer,
    private readonly parent: FinderParent,
    private readonly filters: IssueFilters,
    private readonly today = new Date().toISOString().slice(0, 10),
  ) {}

  /**
   * Looks up the ids of the label titles and assignee usernames the filters name, so the list and
   * its count bind them as values: the planner then estimates from the column statistics how many
   * issues carry them (a subquery's result it cannot see) and picks its scans accordingly.
   */
  async resolveNames(): Promise<void> {
    const named = (v: string) => !isNone(v) && !isAny(v);
    const titles = [...new Set(this.filters.labels ?? [])].filter(named);
    const users = (this.filters.assigneeUsername ?? []).filter(named).map((u) => u.toLowerCase());
    if (!titles.length && !users.length) return;
    const s: FinderScope = { knex: this.knex, viewer: this.viewer, parent: this.parent, today: this.today };
    const ids = labelIdsTitled(s, true, 'title, id, project_id');
    const [labelRows, userRows] = await Promise.all([
      titles.length ? queryPrepared<{ title: string; id: number; project_id: number | null }>(this.knex, this.knex.raw(ids.sql, [titles, ...ids.bindings])) : [],
      users.length ? queryPrepared<{ id: number; username: string }>(this.knex, this.knex.raw(USERS_NAMED, [users])) : [],
    ]);
    const labels = new Map<string, number[]>(titles.map((t) => [t, []]));
    for (const l of labelRows) labels.get(l.title)?.push(l.id);
    const projectLabelIds = new Set(labelRows.filter((l) => l.project_id !== null).map((l) => l.id));
    this.names = { labels, projectLabelIds, users: new Map(userRows.map((u) => [u.username.toLowerCase(), u.id])) };
  }

  /**
   * For a signed-in non-administrator's group or instance list, looks up the projects it reads
   * (readable, undeleted, unarchived under `non_archived`) and those where they see every
   * confidential issue, in one prepared statement, so the list's statements bind two id arrays
   * instead of carrying the membership, share and group-link subqueries (planning them was most of
   * a filtered list's Postgres time). Past `RESOLVED_PROJECTS_MAX` projects the subqueries stay.
   */
  async resolveProjects(): Promise<void> {
    const { knex, viewer, parent } = this;
    if (parent.kind === 'project' || viewer.admin || !viewer.user) return;
    const where = ['NOT p.deleted'];
    const bindings: Knex.Value[] = [memberOr(knex, viewer.user.id, 'p', ISSUE_ADMIN_LEVEL) as unknown as Knex.Value];
    if (parent.kind === 'group') {
      where.push('p.group_traversal_ids @> ARRAY[?]::int[]');
      bindings.push(parent.groupId);
    }
    if (this.filters.nonArchived) where.push('NOT p.archived');
    where.push('?');
    bindings.push(readableProjects(knex, viewer, 'p') as unknown as Knex.Value);
    const sql = `SELECT p.id, ? AS reporter FROM projects p WHERE ${where.join(' AND ')} LIMIT ${RESOLVED_PROJECTS_MAX + 1}`;
    const rows = await queryPrepared<{ id: number; reporter: boolean }>(knex, knex.raw(sql, bindings));
    if (rows.length > RESOLVED_PROJECTS_MAX) return;
    this.projects = { ids: rows.map((r) => r.id), reporter: rows.filter((r) => r.reporter).map((r) => r.id) };
  }

  /** The projects `resolveProjects` looked up, if it did. */
  get resolvedProjects(): ResolvedProjects | undefined {
    return this.projects;
  }

  /**
   * True once `resolveNames` bound ids: then each statement must be planned with its values (an
   * unnamed statement), since a cached generic plan assumes a default frequency for them.
   */
  get plansPerRequest(): boolean {
    return this.names !== undefined;
  }

  /** The filtered issues, unordered (for counts). */
  filtered(): Knex.QueryBuilder {
    return this.applyFilters(this.base('issues as i'));
  }

  private applyFilters(q: Knex.QueryBuilder): Knex.QueryBuilder {
    const s: FinderScope = { knex: this.knex, viewer: this.viewer, parent: this.parent, today: this.today, names: this.names, projects: this.projects };
    for (const step of positiveFilters) step(q, this.filters, s);
    for (const step of negatedFilters) step(q, this.filters, s);
    return q;
  }

  /**
   * The filtered issues as a count reads them (`id` and the columns the filters test only): when a
   * filter names a label or an assignee and every other filter reads columns `issue_filter_keys`
   * copies, from that key's rows (`keyed`: an index-only scan over the matches, keyed by label or
   * assignee, project, state and creation time, whose plan does not depend on the values), else
   * `filtered()`.
   */
  countable(): { query: Knex.QueryBuilder; keyed: boolean } {
    const key = filterKey(this.filters, this.viewer, this.names);
    if (!key) return { query: this.filtered(), keyed: false };
    const q = this.base('issue_filter_keys as i').where('i.kind', key.kind).whereRaw('i.key_id = ANY(?::int[])', [key.ids]);
    return { query: this.applyFilters(q), keyed: true };
  }

  /**
   * The exact number of filtered issues from `issue_filter_counts`, when one label, one assignee or
   * one milestone title (with at most the state, `scope=all` and `non_archived`) filters the list;
   * else null.
   */
  async countFromCounters(run: <T>(q: Knex.QueryBuilder) => Promise<T[]>): Promise<number | null> {
    const key = counterKey(this.filters, this.viewer, this.names);
    return key ? countFromCounters(this.knex, this.viewer, this.parent, this.filters, key, run, this.projects) : null;
  }

  /**
   * A lower bound of the list's size when it is one counted key (`countFromCounters`) narrowed by
   * `not[labels]` alone: the key's exact count less, per negated title, every issue of the list's
   * projects and state carrying a label of that title (confidential ones too: an upper bound of
   * those removed). Null when the list has another shape or the key's count is no more than
   * `limit` (then only the exact count tells). A bound above `limit` is enough for `X-Total`,
   * which is omitted past 10,000 rows.
   */
  async countLowerBound(run: <T>(q: Knex.QueryBuilder) => Promise<T[]>, limit: number): Promise<number | null> {
    const { not, ...rest } = this.filters;
    const negated = [...new Set(not?.labels ?? [])];
    if (!negated.length || negated.some((t) => isNone(t) || isAny(t))) return null;
    if (Object.entries(not ?? {}).some(([k, v]) => k !== 'labels' && v !== undefined && !(Array.isArray(v) && v.length === 0))) return null;
    const key = counterKey(rest, this.viewer, this.names);
    if (!key) return null;
    const positive = await countFromCounters(this.knex, this.viewer, this.parent, rest, key, run, this.projects);
    if (positive <= limit) return null;
    const s: FinderScope = { knex: this.knex, viewer: this.viewer, parent: this.parent, today: this.today };
    const lookup = labelIdsTitled(s, true);
    const ids = (await queryPrepared<{ id: number }>(this.knex, this.knex.raw(lookup.sql, [negated, ...lookup.bindings]))).map((r) => r.id);
    if (!ids.length) return positive;
    // every issue of the list's projects carrying one of them, whoever may read it
    const everything: Viewer = { user: this.viewer.user, admin: true };
    const removed = await countFromCounters(this.knex, everything, this.parent, rest, { kind: 'l', ids }, run, this.projects && { ids: this.projects.ids, reporter: this.projects.ids });
    return positive - removed;
  }

  /** The filtered issues, selected as `IssueRow`s and ordered. */
  execute(): Knex.QueryBuilder {
    const q = this.filtered().select(this.knex.raw(issueColumns('i')));
    applyOrder(q, this.filters.orderBy ?? 'created_at', this.filters.sort ?? 'desc');
    return q;
  }

  /** The filtered issues counted per state (one grouped statement). */
  async stateCounts(): Promise<IssueStateCounts> {
    const rows: { state: string; n: string }[] = await this.filtered().select('i.state').count({ n: '*' }).groupBy('i.state');
    const counts: IssueStateCounts = { all: 0, closed: 0, opened: 0 };
    for (const r of rows) {
      counts[r.state as 'opened' | 'closed'] = Number(r.n);
      counts.all += Number(r.n);
    }
    return counts;
  }

  private base(from: string): Knex.QueryBuilder {
    const { knex, viewer, parent } = this;
    if (parent.kind === 'project') {
      const q = knex(from).where('i.project_id', parent.projectId);
      const hidden = confidentialVisible(knex, viewer, 'i', 'p', parent.level);
      if (hidden) q.whereRaw('?', [hidden]);
      return q;
    }
    const resolved = this.projects;
    if (resolved) {
      const q = knex(from).whereRaw('i.project_id = ANY(?::int[])', [resolved.ids]);
      const uid = viewer.user?.id as number;
      if (resolved.reporter.length < resolved.ids.length) {
        q.whereRaw('(NOT i.confidential OR i.author_id = ? OR i.assignee_ids @> ARRAY[?]::int[] OR i.project_id = ANY(?::int[]))', [uid, uid, resolved.reporter]);
      }
      return q;
    }
    const q = knex(from).join('projects as p', 'p.id', 'i.project_id').where('p.deleted', false);
    if (parent.kind === 'group') q.whereRaw('p.group_traversal_ids @> ARRAY[?]::int[]', [parent.groupId]);
    q.whereRaw('?', [readableProjects(knex, viewer, 'p')]);
    const hidden = confidentialVisible(knex, viewer, 'i', 'p');
    if (hidden) q.whereRaw('?', [hidden]);
    return q;
  }
}
