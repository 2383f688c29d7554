import type { Knex } from 'knex';
import { queryPrepared } from '@anvil/db';
import { confidentialVisible, readableProjects, Viewer } from '../../access/viewer';
import { issueColumns } from '../issue-row';
import { IssueFilters, isAny, isNone } from './filters';
import { negatedFilters } from './negations';
import { labelIdsTitled, positiveFilters } from './positive';
import { applyOrder } from './sort';
import { filterKey } from './filter-keys';
import { counterKey, countFromCounters } from './filter-counts';
import type { FinderParent, FinderScope, ResolvedNames } from './types';

export type { FilterStep, FinderParent, FinderScope } from './types';

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
    const s: FinderScope = { knex: this.knex, viewer: this.viewer, parent: this.parent, today: this.today, names: this.names };
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
    return key ? countFromCounters(this.knex, this.viewer, this.parent, this.filters, key, run) : null;
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
    const q = knex(from).join('projects as p', 'p.id', 'i.project_id').where('p.deleted', false);
    if (parent.kind === 'group') q.whereRaw('p.group_traversal_ids @> ARRAY[?]::int[]', [parent.groupId]);
    q.whereRaw('?', [readableProjects(knex, viewer, 'p')]);
    const hidden = confidentialVisible(knex, viewer, 'i', 'p');
    if (hidden) q.whereRaw('?', [hidden]);
    return q;
  }
}
