import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { contains, Db, TODAY_UTC } from '../sql';
import { tokenStore } from './token-store';

/** `GET /personal_access_tokens` filters. */
export interface TokensParams {
  user_id?: number;
  revoked?: boolean;
  state?: 'active' | 'inactive';
  search?: string;
  created_after?: Date;
  created_before?: Date;
  last_used_after?: Date;
  last_used_before?: Date;
}

/**
 * Lists tokens: a user's own; administrators see everyone's unless they filter by `user_id`.
 * Ordered by id (stable pages).
 */
export class TokensFinder {
  constructor(
    private readonly db: Db,
    private readonly actor: Actor,
    private readonly params: TokensParams,
  ) {}

  /** The ordered query (not yet paginated). */
  execute(): Knex.QueryBuilder {
    const q = tokenStore.query(this.db);
    const p = this.params;
    if (!this.actor.admin) q.where('user_id', this.actor.id);
    else if (p.user_id !== undefined) q.where('user_id', p.user_id);
    if (p.revoked !== undefined) q.where('revoked', p.revoked);
    if (p.state === 'active') q.where('revoked', false).whereRaw(`(expires_at IS NULL OR expires_at > ${TODAY_UTC})`);
    if (p.state === 'inactive') q.where((w) => w.where('revoked', true).orWhereRaw(`expires_at <= ${TODAY_UTC}`));
    if (p.search) q.whereILike('name', contains(p.search));
    if (p.created_after) q.where('created_at', '>', p.created_after);
    if (p.created_before) q.where('created_at', '<', p.created_before);
    if (p.last_used_after) q.where('last_used_at', '>', p.last_used_after);
    if (p.last_used_before) q.where('last_used_at', '<', p.last_used_before);
    return q.orderBy('id', 'asc');
  }
}
