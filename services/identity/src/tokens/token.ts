import { dateOnly, todayUtc } from '../sql';

/** Scopes a personal access token may carry. */
export const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo', 'admin_mode'] as const;
/** One token scope. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A row of `personal_access_tokens`. */
export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  description: string | null;
  scopes: string[];
  token_digest: string;
  revoked: boolean;
  expires_at: Date | string | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A personal access token (only its digest is stored). */
export interface Token {
  id: number;
  userId: number;
  name: string;
  description: string | null;
  scopes: string[];
  digest: string;
  revoked: boolean;
  /** `YYYY-MM-DD`; the token stops working at the start of that day (UTC). */
  expiresAt: string | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** Maps a token row to a Token. */
export function toToken(row: TokenRow): Token {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    description: row.description,
    scopes: row.scopes ?? [],
    digest: row.token_digest,
    revoked: row.revoked,
    expiresAt: dateOnly(row.expires_at),
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  };
}

/** True once the expiry date has begun (UTC). */
export function isExpired(t: Pick<Token, 'expiresAt'>, today = todayUtc()): boolean {
  return t.expiresAt !== null && t.expiresAt <= today;
}

/** Neither revoked nor expired (GitLab's `active`). */
export function isActive(t: Pick<Token, 'expiresAt' | 'revoked'>): boolean {
  return !t.revoked && !isExpired(t);
}
