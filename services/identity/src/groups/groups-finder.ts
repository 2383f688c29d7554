import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { contains, Db, similaritySql, MEMBER_SUBTREE_IDS, PROJECT_READABLE_GROUP_IDS } from '../sql';
import { groupSelect } from './group-store';

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

  /** The ordered query (not yet paginated). */
  execute(): Knex.QueryBuilder {
    const q = groupSelect(this.db, this.actor?.id ?? null);
    this.byVisibleTo(q);
    this.byParent(q);
    this.byMembership(q);
    this.byFilters(q);
    return this.ordered(q);
  }

  private byVisibleTo(q: Knex.QueryBuilder) {
    const a = this.actor;
    if (!a) return void q.where('namespaces.visibility', 'public');
    const allAvailable = this.params.all_available ?? a.admin;
    if (a.admin && allAvailable) return;
    // the caller's own groups: one array of ids, fetched by primary key, instead of every group
    // tested against the subqueries (which suits the public and internal groups' scan below)
    if (!allAvailable) return void q.whereRaw(`namespaces.id = ANY(ARRAY(${MEMBER_SUBTREE_IDS}) || ${PROJECT_READABLE_GROUP_IDS})`, [a.id, 10, a.id, a.id]);
    const readable = (w: Knex.QueryBuilder) =>
      w.whereRaw(`namespaces.id IN (${MEMBER_SUBTREE_IDS})`, [a.id, 10]).orWhereRaw(`namespaces.id = ANY(${PROJECT_READABLE_GROUP_IDS})`, [a.id, a.id]);
    q.where((w) => w.whereIn('namespaces.visibility', ['public', 'internal']).orWhere(readable));
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
    if (skip_groups?.length) q.whereNotIn('namespaces.id', skip_groups);
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
