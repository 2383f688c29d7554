import { generateToken, hashToken, ResolvedToken, TokenFailure, tokenMatches } from '@anvil/auth';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { isExpired, Token } from './token';
import { tokenStore } from './token-store';

/** Attributes of a new token. */
export interface NewToken {
  name: string;
  scopes: string[];
  expires_at?: string | null;
  description?: string | null;
}

/**
 * Creates a token for `userId`. Returns the stored token and the token string, which exists only
 * here: the table keeps its SHA-256 digest.
 */
export async function createToken(ctx: IdentityContext, userId: number, input: NewToken): Promise<{ token: Token; secret: string }> {
  const secret = generateToken();
  const token = await tokenStore.insert(ctx.db, {
    user_id: userId,
    name: input.name,
    description: input.description ?? null,
    scopes: [...new Set(input.scopes)],
    token_digest: hashToken(secret),
    expires_at: input.expires_at ?? null,
  });
  return { token, secret };
}

/** A token reference: the token string, or a token id with its user (registry JWTs carry those). */
export type TokenRef = { token: string } | { tokenId: number; userId: number };

/**
 * Resolves a token for the gateway: the user and scopes, or why it is refused (unknown,
 * revoked, expired, or the user blocked). One indexed query (by digest, confirmed in constant
 * time, or by id and user); records use at most once a minute.
 */
export async function resolveToken(ctx: IdentityContext, ref: TokenRef): Promise<ResolvedToken | { error: TokenFailure }> {
  const found = await tokenStore.findWithUser(ctx.db, 'token' in ref ? { digest: hashToken(ref.token) } : { id: ref.tokenId, userId: ref.userId });
  if (!found || ('token' in ref && !tokenMatches(ref.token, found.token.digest))) return { error: 'unknown' };
  const { token, user } = found;
  if (token.revoked) return { error: 'revoked' };
  if (isExpired(token)) return { error: 'expired' };
  if (user.state !== 'active') return { error: 'blocked' };
  if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() >= 60_000) await tokenStore.touch(ctx.db, token.id);
  return { user, scopes: token.scopes, token_id: token.id, expires_at: token.expiresAt };
}

/**
 * Revokes a token and writes `identity.token.revoked` in the same transaction, so every cache of
 * token resolutions (the gateway's, on every replica) drops it as soon as the relay publishes.
 */
export async function revokeToken(ctx: IdentityContext, token: Pick<Token, 'id' | 'userId'>): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await tokenStore.revoke(trx, token.id);
    await publish.tokenRevoked(trx, token);
  });
}
