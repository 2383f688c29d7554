import type { Knex } from 'knex';
import type { Actor, Visibility } from '@anvil/auth';
import { prepared } from '@anvil/db';
import { ACTIVE_MEMBER, contains, Db, MEMBER_SUBTREE_IDS, SHARED_PROJECT_IDS, similaritySql } from '../sql';
import type { ProjectRow } from './project';
import { projectSelect } from './project-store';

/** `GET /projects` (and group projects) filters. */
export interface ProjectsParams {
  archived?: boolean;
  visibility?: Visibility;
  search?: string;
  search_namespaces?: boolean;
  owned?: boolean;
  membership?: boolean;
  min_access_level?: number;
  id_after?: number;
  id_before?: number;
  last_activity_after?: Date;
  last_activity_before?: Date;
  topic?: string[];
  starred?: boolean;
  with_issues_enabled?: boolean;
  with_merge_requests_enabled?: boolean;
  order_by?: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at' | 'similarity' | 'star_count';
  sort?: 'asc' | 'desc';
}

/**
 * Restricts projects (alias `p`, namespace `n`) to a group, optionally with its subgroups and the
 * projects shared with it (`withShared`), or to the projects shared with it alone (`onlyShared`).
 */
export interface GroupScopeFilter {
  groupId: number;
  includeSubgroups: boolean;
  withShared?: boolean;
  onlyShared?: boolean;
}

/** The level a private project feature needs (GitLab's `ProjectFeature.required_minimum_access_level`). */
const FEATURE_MIN_LEVEL = { issues_access_level: 10, merge_requests_access_level: 20 } as const;

const directProjectIds = (level: number) => `p.id = ANY(ARRAY(SELECT m.source_id FROM members m WHERE m.user_id = ? AND m.source_type = 'Project' AND m.access_level >= ${Number(level)} AND ${ACTIVE_MEMBER}))`;

/**
 * Projects whose namespace lies in a group user `?` is a member of at level `?` or below it. On
 * `p.namespace_id`, not on the joined namespace, so the filter reads `projects` alone: Postgres can
 * walk the ordering index and stop at the page's end, drop the joins from the count, and (arrays,
 * not subqueries) OR the visibility, primary-key and namespace indexes into one bitmap.
 */
const inMemberGroups = `p.namespace_id = ANY(ARRAY(${MEMBER_SUBTREE_IDS}))`;

/** Projects shared with a group user `?` is a member of, at level `?` or above (the lower of membership and share). */
const sharedWithMember = `p.id = ANY(ARRAY(${SHARED_PROJECT_IDS}))`;

/**
 * Builds a project list for `actor`: anonymous callers see public projects, signed-in users
 * public, internal and the ones they are members of (directly, through a group or a share), administrators
 * everything. Each `by*` step leaves the query unchanged when its param is absent.
 */
export class ProjectsFinder {
  constructor(
    private readonly db: Db,
    private readonly actor: Actor | null,
    private readonly params: ProjectsParams,
    private readonly group?: GroupScopeFilter,
  ) {}

  /** The ordered query (not yet paginated), with the caller's levels selected. */
  execute(): Knex.QueryBuilder {
    const q = projectSelect(this.db, this.actor?.id ?? null);
    this.byVisibleTo(q);
    this.byGroup(q);
    this.byMembership(q);
    this.byAttributes(q);
    this.byFeatures(q);
    this.bySearch(q);
    return this.ordered(q);
  }

  /**
   * The first `limit` projects in one prepared statement (what `GET /groups/:id` embeds). Not for
   * `paginate`, which derives a count query from the builder (a named statement must keep its text).
   */
  async first(limit: number): Promise<ProjectRow[]> {
    return (await prepared(this.execute().limit(limit), 'identity')) as ProjectRow[];
  }

  private memberOf(q: Knex.QueryBuilder, level: number) {
    const id = (this.actor as Actor).id;
    q.where((w) => w.whereRaw(directProjectIds(level), [id]).orWhereRaw(inMemberGroups, [id, level]).orWhereRaw(sharedWithMember, [id, level]));
  }

  private byVisibleTo(q: Knex.QueryBuilder) {
    const a = this.actor;
    if (!a) return void q.where('p.visibility', 'public');
    if (a.admin) return;
    q.where((w) => w.whereIn('p.visibility', ['public', 'internal']).orWhere((m) => this.memberOf(m, 10)));
  }

  private byGroup(q: Knex.QueryBuilder) {
    const g = this.group;
    if (!g) return;
    const shared = 'p.id IN (SELECT l.project_id FROM project_group_links l WHERE l.group_id = ?)';
    if (g.onlyShared) return void q.whereRaw(shared, [g.groupId]);
    q.where((w) => {
      if (g.includeSubgroups) w.whereRaw('p.namespace_id IN (SELECT sn.id FROM namespaces sn WHERE sn.traversal_ids @> ARRAY[?]::integer[])', [g.groupId]);
      else w.where('p.namespace_id', g.groupId);
      if (g.withShared) w.orWhereRaw(shared, [g.groupId]);
    });
  }

  private byMembership(q: Knex.QueryBuilder) {
    const a = this.actor;
    if (!a) return;
    if (this.params.membership) this.memberOf(q, 10);
    if (this.params.min_access_level) this.memberOf(q, this.params.min_access_level);
    if (this.params.owned) q.where((w) => w.whereRaw(`p.namespace_id IN (SELECT sn.id FROM namespaces sn WHERE sn.owner_id = ? AND sn.kind = 'user')`, [a.id]).orWhereRaw(inMemberGroups, [a.id, 50]));
  }

  private byAttributes(q: Knex.QueryBuilder) {
    const { archived, visibility, id_after, id_before, last_activity_after, last_activity_before, topic } = this.params;
    if (archived !== undefined) q.where('p.archived', archived);
    if (visibility) q.where('p.visibility', visibility);
    if (id_after !== undefined) q.where('p.id', '>', id_after);
    if (id_before !== undefined) q.where('p.id', '<', id_before);
    if (last_activity_after) q.where('p.last_activity_at', '>', last_activity_after);
    if (last_activity_before) q.where('p.last_activity_at', '<', last_activity_before);
    if (topic?.length) q.whereRaw('p.topics @> ?::text[]', [topic]);
  }

  /**
   * `starred`: no one has starred a project here, so a signed-in caller gets none (ignored for
   * anonymous callers, as GitLab does). `with_issues_enabled` / `with_merge_requests_enabled`: the
   * feature is enabled or public, or private and the caller a member of at least the feature's
   * minimum level (GitLab's `with_feature_available_for_user`).
   */
  private byFeatures(q: Knex.QueryBuilder) {
    const a = this.actor;
    if (this.params.starred && a) q.whereRaw('false');
    if (this.params.with_issues_enabled) this.featureAvailable(q, 'issues_access_level');
    if (this.params.with_merge_requests_enabled) this.featureAvailable(q, 'merge_requests_access_level');
  }

  private featureAvailable(q: Knex.QueryBuilder, feature: 'issues_access_level' | 'merge_requests_access_level') {
    const level = `COALESCE(p.settings->>'${feature}', 'enabled')`;
    const a = this.actor;
    if (a?.admin) return void q.whereRaw(`${level} <> 'disabled'`);
    q.where((w) => {
      w.whereRaw(`${level} IN ('enabled', 'public')`);
      if (a) w.orWhere((m) => m.whereRaw(`${level} = 'private'`).where((x) => this.memberOf(x, FEATURE_MIN_LEVEL[feature])));
    });
  }

  private bySearch(q: Knex.QueryBuilder) {
    const s = this.params.search;
    if (!s) return;
    q.where((w) => {
      w.whereILike('p.name', contains(s)).orWhereILike('p.path', contains(s)).orWhereILike('p.description', contains(s));
      if (this.params.search_namespaces) w.orWhereRaw(`(n.full_path || '/' || p.path) ILIKE ?`, [contains(s)]);
    });
  }

  /**
   * `similarity` (GitLab's `handle_similarity_order`): with a search, the most similar first (path,
   * name, description); without one, by name ascending.
   */
  private bySimilarity(q: Knex.QueryBuilder): Knex.QueryBuilder {
    const { search, sort } = this.params;
    if (!search) return q.orderBy('p.name', 'asc').orderBy('p.id', sort ?? 'asc');
    const score = similaritySql(search, [['p.path', 1], ['p.name', 0.7], ['COALESCE(p.description, \'\')', 0.2]]);
    return q.orderByRaw(`${score.sql} DESC`, score.bindings).orderBy('p.id', 'desc');
  }

  private ordered(q: Knex.QueryBuilder): Knex.QueryBuilder {
    if (this.params.order_by === 'similarity') return this.bySimilarity(q);
    const by = this.params.order_by ?? 'created_at';
    const dir = this.params.sort ?? 'desc';
    q.orderBy(`p.${by}`, dir);
    if (by !== 'id') q.orderBy('p.id', dir);
    return q;
  }
}
