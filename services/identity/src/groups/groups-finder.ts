import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { queryPrepared } from '@anvil/db';
import { contains, Db, similaritySql, MEMBER_SUBTREE_IDS, PROJECT_READABLE_GROUP_IDS } from '../sql';
import { groupSelect } from './group-store';

/** A Postgres array literal of integers, bound as one value (knex expands a bound JS array into a list). */
function intArray(ids: number[]): string {
  return `{${ids.map((n) => Math.trunc(n)).join(',')}}`;
}

/** The ids of the groups user `?` (bound four times) reads through a membership, a share or a project. */
const READABLE_GROUP_IDS = `SELECT ARRAY(${MEMBER_SUBTREE_IDS}) || ${PROJECT_READABLE_GROUP_IDS} AS ids`;

/** The ids of the groups `userId` reads without `all_available` (one prepared statement outside transactions). */
export async function readableGroupIds(db: Db, userId: number): Promise<number[]> {
  const query = db.raw(READABLE_GROUP_IDS, [userId, 10, userId, userId]);
  const rows = (db as Knex.Transaction).isTransaction ? ((await query) as { rows: { ids: number[] }[] }).rows : await queryPrepared<{ ids: number[] }>(db as Knex, query, 'identity');
  return rows[0]?.ids ?? [];
}

/** `GET /groups` and `GET /groups/:id/subgroups` filters. */
export interface GroupsParams {
  all_available?: boolean;
  search?: string;
  owned?: boolean;
  min_access_level?: number;
  top_level_only?: boolean;
  visibility?: 'private' | 'internal' | 'public';
  skip_groups?: number[];
  order_by?: 'name' | 'path' | 'id' | 'similarity';
  sort?: 'asc' | 'desc';
}

/** Restricts a group list to the groups below one group: its children, or all its descendants. */
export interface ParentFilter {
  id: number;
  descendants?: boolean;
}

/**
 * Builds a group list for `actor`: anonymous callers see public groups; administrators and
 * `all_available=true` see every group they can read; everyone else sees the groups they are a
 * member of (directly or through an ancestor) and those they read through a project inside. `parent` restricts to its direct subgroups, or
 * with `descendants` to every group below it (GitLab's `include_parent_descendants`).
 */
export class GroupsFinder {
  constructor(
    private readonly db: Db,
    private readonly actor: Actor | null,
    private readonly params: GroupsParams,
    private readonly parent?: ParentFilter,
  ) {}

  /** The ids `byVisibleTo` binds (read by `load`). */
  private readable?: number[];

  /** Whether the list is limited to the groups the caller reads (everyone's but an administrator's with `all_available`). */
  private readsOwnGroups(): boolean {
    const a = this.actor;
    return !!a && !(a.admin && (this.params.all_available ?? a.admin));
  }

  /** Reads what the query binds: the caller's readable group ids. Call once before `execute`. */
  async load(): Promise<this> {
    if (this.readsOwnGroups() && !this.readable) this.readable = await readableGroupIds(this.db, this.actor!.id);
    return this;
  }

  /**
   * The ordered query (not yet paginated). Its SQL text depends only on which params are present
   * (values are bound, id lists are one array), so it can run as a prepared statement.
   */
  execute(): Knex.QueryBuilder {
    const q = groupSelect(this.db, this.actor?.id ?? null);
    this.byVisibleTo(q);
    this.byParent(q);
    this.byMembership(q);
    this.byFilters(q);
    return this.ordered(q);
  }

  /**
   * Non-administrators see the groups they read through a membership, a share or a project (one
   * array of ids, read first by a prepared statement: the lists then bind it instead of planning
   * and running the membership subqueries in each of their statements), and with `all_available`
   * every public and internal group too.
   */
  private byVisibleTo(q: Knex.QueryBuilder) {
    const a = this.actor;
    if (!a) return void q.whereRaw("namespaces.visibility = 'public'");
    if (!this.readsOwnGroups()) return;
    const ids = this.readable;
    if (!ids) throw new Error('GroupsFinder: load() before execute()');
    const allAvailable = this.params.all_available ?? a.admin;
    if (!allAvailable) return void q.whereRaw('namespaces.id = ANY(?::integer[])', [intArray(ids)]);
    // a hashed subplan: one probe per public, internal or private group scanned, not a walk of the array
    q.where((w) => w.whereRaw("namespaces.visibility IN ('public', 'internal')").orWhereRaw('namespaces.id IN (SELECT unnest(?::integer[]))', [intArray(ids)]));
  }

  private byParent(q: Knex.QueryBuilder) {
    const parent = this.parent;
    if (parent?.descendants) q.whereRaw('namespaces.traversal_ids @> ARRAY[?]::integer[]', [parent.id]).whereNot('namespaces.id', parent.id);
    else if (parent) q.where('namespaces.parent_id', parent.id);
    else if (this.params.top_level_only) q.whereNull('namespaces.parent_id');
  }

  private byMembership(q: Knex.QueryBuilder) {
    const a = this.actor;
    if (!a) return;
    if (this.params.owned) q.whereRaw(`namespaces.id IN (${MEMBER_SUBTREE_IDS})`, [a.id, 50]);
    if (this.params.min_access_level) q.whereRaw(`namespaces.id IN (${MEMBER_SUBTREE_IDS})`, [a.id, this.params.min_access_level]);
  }

  private byFilters(q: Knex.QueryBuilder) {
    const { search, visibility, skip_groups } = this.params;
    if (search) q.where((w) => w.whereILike('namespaces.name', contains(search)).orWhereILike('namespaces.path', contains(search)));
    if (visibility) q.where('namespaces.visibility', visibility);
    if (skip_groups?.length) q.whereRaw('NOT (namespaces.id = ANY(?::integer[]))', [intArray(skip_groups)]);
  }

  private ordered(q: Knex.QueryBuilder): Knex.QueryBuilder {
    const { order_by, sort, search } = this.params;
    if (order_by === 'similarity' && search) {
      const score = similaritySql(search, [['namespaces.path', 1], ['namespaces.name', 0.7]]);
      q.orderByRaw(`${score.sql} DESC`, score.bindings);
      return q.orderBy('namespaces.parent_id', 'desc').orderBy('namespaces.id', 'asc');
    }
    const by = order_by === 'similarity' || !order_by ? 'name' : order_by;
    q.orderBy(`namespaces.${by}`, sort ?? 'asc');
    if (by !== 'id') q.orderBy('namespaces.id', 'asc');
    return q;
  }
}
