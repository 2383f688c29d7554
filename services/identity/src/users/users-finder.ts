import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { contains, Db } from '../sql';
import { userSelect } from './user-store';

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
}

/**
 * Builds the users list query for `actor`. Administrator-only filters (`admins`, `created_*`,
 * `order_by`, `sort`, searching private e-mail) are ignored for everyone else, as GitLab
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

  /** The ordered query (not yet paginated). */
  execute(): Knex.QueryBuilder {
    const q = userSelect(this.db);
    this.byUsername(q);
    this.bySearch(q);
    this.byState(q);
    this.byKind(q);
    this.byCreated(q);
    return this.ordered(q);
  }

  /** The sort direction of the list (keyset pagination follows it). */
  direction(): 'asc' | 'desc' {
    return (this.admin && this.params.sort) || 'desc';
  }

  private byUsername(q: Knex.QueryBuilder) {
    if (this.params.username !== undefined) q.whereRaw('lower(users.username) = lower(?)', [this.params.username]);
  }

  private bySearch(q: Knex.QueryBuilder) {
    const s = this.params.search;
    if (!s) return;
    q.where((w) => {
      w.whereILike('users.name', contains(s)).orWhereILike('users.username', contains(s)).orWhereRaw('lower(users.public_email) = lower(?)', [s]);
      if (this.admin) w.orWhereRaw('lower(users.email) = lower(?)', [s]);
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
  }

  private byCreated(q: Knex.QueryBuilder) {
    if (!this.admin) return;
    if (this.params.created_after) q.where('users.created_at', '>', this.params.created_after);
    if (this.params.created_before) q.where('users.created_at', '<', this.params.created_before);
  }

  private ordered(q: Knex.QueryBuilder): Knex.QueryBuilder {
    const by = (this.admin && this.params.order_by) || 'id';
    const dir = this.direction();
    q.orderBy(`users.${by}`, dir);
    if (by !== 'id') q.orderBy('users.id', dir);
    return q;
  }
}
