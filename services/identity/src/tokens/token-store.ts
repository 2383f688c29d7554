import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { prepared } from '@anvil/db';
import type { Db } from '../sql';
import { Token, TokenRow, toToken } from './token';

/** The columns of `personal_access_tokens` (listed: the gateway's lookup is a prepared statement). */
const TOKEN_COLUMNS = ['id', 'user_id', 'name', 'description', 'scopes', 'token_digest', 'revoked', 'expires_at', 'last_used_at', 'created_at', 'updated_at'];

type TokenWithUserRow = TokenRow & { u_username: string; u_name: string; u_admin: boolean; u_state: 'active' | 'blocked' };

/** Reads and writes `personal_access_tokens`. */
export const tokenStore = {
  /** The base query of the token list. */
  query(db: Db): Knex.QueryBuilder {
    return db('personal_access_tokens').select('*');
  },

  /** A token by its digest (unique index), or null. */
  async findByDigest(db: Db, digest: string): Promise<Token | null> {
    const row = (await db('personal_access_tokens').where('token_digest', digest).first()) as TokenRow | undefined;
    return row ? toToken(row) : null;
  },

  /** A token with its user, by digest or by id and user, in one indexed query (prepared); or null. */
  async findWithUser(db: Db, by: { digest: string } | { id: number; userId: number }): Promise<{ token: Token; user: Actor } | null> {
    const q = db('personal_access_tokens as t')
      .join('users as u', 'u.id', 't.user_id')
      .select(...TOKEN_COLUMNS.map((c) => `t.${c}`), 'u.username as u_username', 'u.name as u_name', 'u.admin as u_admin', 'u.state as u_state');
    if ('digest' in by) q.where('t.token_digest', by.digest);
    else q.where({ 't.id': by.id, 't.user_id': by.userId });
    const row = (await prepared(q.first(), 'identity')) as TokenWithUserRow | undefined;
    if (!row) return null;
    return { token: toToken(row), user: { id: row.user_id, username: row.u_username, name: row.u_name, admin: row.u_admin, state: row.u_state } };
  },

  /** A token by id, or null. */
  async findById(db: Db, id: number): Promise<Token | null> {
    const row = (await db('personal_access_tokens').where({ id }).first()) as TokenRow | undefined;
    return row ? toToken(row) : null;
  },

  /** Inserts a token and returns it. */
  async insert(db: Db, row: { user_id: number; name: string; description: string | null; scopes: string[]; token_digest: string; expires_at: string | null }): Promise<Token> {
    const [r] = (await db('personal_access_tokens').insert(row).returning('*')) as TokenRow[];
    return toToken(r);
  },

  /** Marks a token revoked. */
  async revoke(db: Db, id: number): Promise<void> {
    await db('personal_access_tokens').where({ id }).update({ revoked: true, updated_at: db.fn.now() });
  },

  /** Sets `last_used_at` to now unless it was set within the last minute (at most one write a minute). */
  async touch(db: Db, id: number): Promise<void> {
    await db('personal_access_tokens')
      .where({ id })
      .where((q) => q.whereNull('last_used_at').orWhereRaw("last_used_at < now() - interval '1 minute'"))
      .update({ last_used_at: db.fn.now() });
  },
};
