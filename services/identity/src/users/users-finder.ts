import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import type { Db } from '../sql';
import { userSelect } from './user-store';
import { normalizeUid } from './identity-store';
import { nameOrUsernameMatch, parseUserSearch, UserSearch } from './user-search';

/** `GET /users` filters (booleans act only when true, as GitLab's). */
export interface UsersParams {
  username?: string;
  search?: string;
  active?: boolean;
  blocked?: boolean;
  external?: boolean;
  exclude_external?: boolean;
  exclude_active?: boolean;
  humans?: boolean;
  exclude_humans?: boolean;
  admins?: boolean;
  created_after?: Date;
  created_before?: Date;
  order_by?: 'id' | 'name' | 'username' | 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
  exclude_internal?: boolean;
  without_project_bots?: boolean;
  extern_uid?: string;
  provider?: string;
  two_factor?: 'enabled' | 'disabled';
  without_projects?: boolean;
  custom_attributes?: Record<string, string>;
}

/** The columns of `UserBasic`, what everyone but administrators sees in lists. */
export const BASIC_COLUMNS = ['users.id', 'users.username', 'users.name', 'users.state'];

/** GitLab's internal user types (`exclude_internal` drops these; project and group bots stay). */
export const INTERNAL_USER_TYPES = ['alert_bot', 'support_bot', 'visual_review_bot', 'migration_bot', 'security_bot', 'automation_bot', 'ghost', 'admin_bot', 'suggested_reviewers_bot', 'security_policy_bot', 'llm_bot', 'duo_code_review_bot', 'import_user', 'placeholder'];

/**
 * Builds the users list query for `actor`. Administrator-only filters (`admins`, `created_*`,
 * `order_by`, `sort`, `extern_uid`/`provider`, `two_factor`, `without_projects`,
 * `custom_attributes`, searching private e-mail) are ignored for everyone else, as GitLab
 * strips them. Each `by*` step leaves the query unchanged when its param is absent.
 */
export class UsersFinder {
  constructor(
    private readonly db: Db,
    private readonly actor: Actor | null,
    private readonly params: UsersParams,
  ) {}

  private get admin(): boolean {
    return !!this.actor?.admin;
  }

  private parsed?: { search: UserSearch | null | undefined };

  /** The parsed `search` (undefined without one, null when nothing is left to search for), parsed once. */
  get search(): UserSearch | null | undefined {
    const raw = this.params.search;
    this.parsed ??= { search: raw === undefined || !raw.trim() ? undefined : parseUserSearch(raw) };
    return this.parsed.search;
  }

  /**
   * Whether the list is a search in GitLab's relevance order (exact matches first, then by name):
   * a search without an administrator's `order_by` or `sort` (others' are ignored).
   */
  relevanceOrdered(): boolean {
    return !!this.search && !(this.admin && (this.params.order_by || this.params.sort));
  }

  /** The filtered list without an order, selected as `execute` selects it. */
  unordered(): Knex.QueryBuilder {
    return this.filtered(this.admin ? userSelect(this.db) : this.db('users').select(BASIC_COLUMNS));
  }

  /**
   * The ordered query (not yet paginated): every column for administrators (`UserWithAdmin`), the
   * `UserBasic` columns (`BASIC_COLUMNS`) for everyone else.
   */
  execute(): Knex.QueryBuilder {
    return this.ordered(this.unordered());
  }

  /**
   * Whether the list can run as prepared statements: its SQL text is fixed by which params are
   * present, and it names its columns (an administrator's reads `users.*`).
   */
  fixedShape(): boolean {
    return !this.admin;
  }

  /**
   * The same rows for counting, without the personal namespace join (which Postgres cannot drop:
   * its unique index is partial), unless `without_projects` reads it.
   */
  countQuery(): Knex.QueryBuilder {
    return this.filtered(this.admin && this.params.without_projects ? userSelect(this.db) : this.db('users'));
  }

  private filtered(q: Knex.QueryBuilder): Knex.QueryBuilder {
    this.byUsername(q);
    this.bySearch(q);
    this.byState(q);
    this.byKind(q);
    this.byCreated(q);
    this.byIdentity(q);
    this.byTwoFactor(q);
    this.byProjects(q);
    this.byCustomAttributes(q);
    return q;
  }

  /** Whether the page reads every match anyway (a search sorted by id), so it may count them too (`paginate`'s `windowCount`). */
  countsInPage(): boolean {
    return !!this.search && ((this.admin && this.params.order_by) || 'id') === 'id';
  }

  /** The sort direction of the list (keyset pagination follows it). */
  direction(): 'asc' | 'desc' {
    return (this.admin && this.params.sort) || 'desc';
  }

  private byUsername(q: Knex.QueryBuilder) {
    if (this.params.username !== undefined) q.whereRaw('lower(users.username) = lower(?)', [this.params.username]);
  }

  /**
   * GitLab's `User.search`: every term of 3 characters or more in the name or in the username
   * (a shorter query: the whole name or username), or the public e-mail; an administrator's also
   * finds the primary e-mail and confirmed secondary ones. A blank search is no filter; one that is
   * only `@` finds nobody.
   */
  private bySearch(q: Knex.QueryBuilder) {
    const s = this.search;
    if (s === undefined) return;
    if (s === null) return void q.whereRaw('false');
    q.where((w) => {
      w.whereRaw('?', [nameOrUsernameMatch(this.db, s)]).orWhereRaw('lower(users.public_email) = ?', [s.query]);
      if (this.admin) {
        w.orWhereRaw('lower(users.email) = ?', [s.query])
          .orWhereRaw('users.id = (SELECT e.user_id FROM emails e WHERE lower(e.email) = ? AND e.confirmed_at IS NOT NULL LIMIT 1)', [s.query]);
      }
    });
  }

  private byState(q: Knex.QueryBuilder) {
    if (this.params.active) q.where('users.state', 'active');
    if (this.params.blocked) q.where('users.state', 'blocked');
    if (this.params.exclude_active) q.whereNot('users.state', 'active');
  }

  private byKind(q: Knex.QueryBuilder) {
    if (this.params.external) q.where('users.external', true);
    if (this.params.exclude_external) q.where('users.external', false);
    if (this.params.humans) q.where('users.bot', false);
    if (this.params.exclude_humans) q.where('users.bot', true);
    if (this.params.admins && this.admin) q.where('users.admin', true);
    if (this.params.exclude_internal) q.where((w) => w.whereNull('users.user_type').orWhereNotIn('users.user_type', INTERNAL_USER_TYPES));
    if (this.params.without_project_bots) q.whereRaw("users.user_type IS DISTINCT FROM 'project_bot'");
  }

  private byIdentity(q: Knex.QueryBuilder) {
    const { extern_uid: uid, provider } = this.params;
    if (!this.admin || !uid || !provider) return;
    q.whereExists((e) => e.select(this.db.raw('1')).from('identities as i').whereRaw('i.user_id = users.id AND i.provider = ? AND lower(i.extern_uid) = lower(?)', [provider, normalizeUid(provider, uid)]));
  }

  /** Two-factor authentication is not offered, so nobody has it enabled. */
  private byTwoFactor(q: Knex.QueryBuilder) {
    if (this.admin && this.params.two_factor === 'enabled') q.whereRaw('false');
  }

  /** Users with no project access: none of their own, no project membership, no group holding one. */
  private byProjects(q: Knex.QueryBuilder) {
    if (!this.admin || !this.params.without_projects) return;
    q.whereRaw(`NOT EXISTS (SELECT 1 FROM projects op WHERE op.namespace_id = un.id)
      AND NOT EXISTS (SELECT 1 FROM members pm WHERE pm.user_id = users.id AND pm.source_type = 'Project')
      AND NOT EXISTS (SELECT 1 FROM members gm JOIN namespaces d ON d.traversal_ids @> ARRAY[gm.source_id] JOIN projects dp ON dp.namespace_id = d.id
        WHERE gm.user_id = users.id AND gm.source_type = 'Namespace')`);
  }

  private byCustomAttributes(q: Knex.QueryBuilder) {
    if (!this.admin) return;
    for (const [key, value] of Object.entries(this.params.custom_attributes ?? {})) {
      q.whereExists((e) => e.select(this.db.raw('1')).from('user_custom_attributes as ca').whereRaw('ca.user_id = users.id AND ca.key = ? AND ca.value = ?', [key, value]));
    }
  }

  private byCreated(q: Knex.QueryBuilder) {
    if (!this.admin) return;
    if (this.params.created_after) q.where('users.created_at', '>', this.params.created_after);
    if (this.params.created_before) q.where('users.created_at', '<', this.params.created_before);
  }

  private ordered(q: Knex.QueryBuilder): Knex.QueryBuilder {
    const by = (this.admin && this.params.order_by) || 'id';
    const dir = this.direction();
    // a search reads its matches from the trigram indexes and sorts them: walking the primary key
    // instead tests every newer row against the patterns (matches are not spread evenly by id)
    if (by === 'id' && this.search) return q.orderByRaw(`users.id + 0 ${dir}`);
    q.orderBy(`users.${by}`, dir);
    if (by !== 'id') q.orderBy('users.id', dir);
    return q;
  }
}
