import { iso } from '../sql';
import { isActive, Token } from '../tokens/token';

/** `PersonalAccessToken`: never the token itself. */
export function toPersonalAccessToken(t: Token) {
  return {
    id: t.id,
    name: t.name,
    revoked: t.revoked,
    created_at: iso(t.createdAt),
    description: t.description,
    scopes: t.scopes,
    user_id: t.userId,
    last_used_at: iso(t.lastUsedAt),
    active: isActive(t),
    expires_at: t.expiresAt,
  };
}

/** `PersonalAccessTokenWithToken`: the create answer, the only time the token string is shown. */
export function toPersonalAccessTokenWithToken(t: Token, secret: string) {
  return { ...toPersonalAccessToken(t), token: secret };
}
