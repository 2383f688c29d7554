import { createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** GitLab caps a registry token's life at three calendar months (`MAX_CONAN_TOKEN_EXPIRE_TIME = 3.months`). */
export const MAX_TOKEN_LIFETIME_MONTHS = 3;
/** `nbf` is set this far in the past, as GitLab's JSONWebToken::Token does. */
export const NOT_BEFORE_LEEWAY_SECONDS = 5;

/**
 * The HS256 key of registry JWTs: `CONAN_JWT_SECRET`, which only the registry (it mints them) and the
 * gateway (it verifies them) hold. There is no fallback: a key derived from a setting every service
 * holds would let any of them mint a registry identity.
 */
export function conanJwtSecret(config: { CONAN_JWT_SECRET?: string }): string {
  if (!config.CONAN_JWT_SECRET) throw new Error('registry: CONAN_JWT_SECRET is required (HS256 key of the Conan JWTs; the gateway needs the same)');
  return config.CONAN_JWT_SECRET;
}

/**
 * `seconds` (epoch) `months` calendar months later, as Rails' `advance(months:)`: the same time of
 * day, the day of the month kept or, when the target month is shorter, its last day (UTC).
 */
export function monthsLater(seconds: number, months: number): number {
  const d = new Date(seconds * 1000);
  const month = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
  const t = Date.UTC(d.getUTCFullYear(), month, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return Math.floor(t / 1000);
}

let memo: { secret: string; key: KeyObject } | undefined;

/**
 * The HMAC key for `secret`: its UTF-8 bytes, the bytes jsonwebtoken used for a string secret and the
 * bytes the gateway's verification uses, so tokens are the same as before. Built once per secret:
 * given a string, jsonwebtoken first tries to parse it as a PEM key on every call (~0.4 ms).
 */
function hmacKey(secret: string): KeyObject {
  if (memo?.secret !== secret) memo = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return memo.key;
}

/** What a registry JWT carries: the personal access token's id and its user's id. */
export interface ConanTokenClaims {
  access_token: number;
  user_id: number;
}

/**
 * Mints a registry JWT like GitLab's ConanToken: HS256, `access_token` (token id), `user_id`, a random
 * `jti`, `iat` now, `nbf` now − 5 s, `exp` the earlier of the token's expiry (start of that day, UTC)
 * and now + 3 months.
 */
export function mintConanJwt(secret: string, claims: ConanTokenClaims, tokenExpiresAt: string | null, nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000);
  let exp = monthsLater(now, MAX_TOKEN_LIFETIME_MONTHS);
  if (tokenExpiresAt) {
    const day = Date.parse(tokenExpiresAt.slice(0, 10) + 'T00:00:00Z');
    if (!Number.isNaN(day)) exp = Math.min(exp, Math.floor(day / 1000));
  }
  const payload = { access_token: claims.access_token, user_id: claims.user_id, jti: randomUUID(), iat: now, nbf: now - NOT_BEFORE_LEEWAY_SECONDS, exp };
  return jwt.sign(payload, hmacKey(secret), { algorithm: 'HS256' });
}

/** The claims of a valid, unexpired registry JWT signed with `secret`; null for anything else. */
export function verifyConanJwt(secret: string, token: string, nowMs = Date.now()): ConanTokenClaims | null {
  try {
    const p = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'], clockTimestamp: Math.floor(nowMs / 1000) });
    if (typeof p !== 'object' || p === null) return null;
    const { access_token, user_id } = p as Record<string, unknown>;
    if (typeof access_token !== 'number' || typeof user_id !== 'number') return null;
    return { access_token, user_id };
  } catch {
    return null;
  }
}
