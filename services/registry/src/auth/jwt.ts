import { createSecretKey, hkdfSync, KeyObject, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** GitLab caps a registry token's life at three months (`MAX_CONAN_TOKEN_EXPIRE_TIME`). */
export const MAX_TOKEN_LIFETIME_SECONDS = 90 * 24 * 3600;
/** `nbf` is set this far in the past, as GitLab's JSONWebToken::Token does. */
export const NOT_BEFORE_LEEWAY_SECONDS = 5;

const HKDF_SALT = 'anvil-conan-jwt';
const HKDF_INFO = 'conan-jwt-hs256';

/**
 * The HS256 key of registry JWTs: `CONAN_JWT_SECRET` when set, else 32 bytes derived from
 * `INTERNAL_API_TOKEN` with HKDF-SHA256 (salt `anvil-conan-jwt`, info `conan-jwt-hs256`), hex-encoded.
 * The gateway verifies the JWTs with the same key, computed the same way from the same settings.
 */
export function conanJwtSecret(config: { CONAN_JWT_SECRET?: string; INTERNAL_API_TOKEN?: string }): string {
  if (config.CONAN_JWT_SECRET) return config.CONAN_JWT_SECRET;
  if (!config.INTERNAL_API_TOKEN) throw new Error('registry: CONAN_JWT_SECRET or INTERNAL_API_TOKEN is required');
  return Buffer.from(hkdfSync('sha256', config.INTERNAL_API_TOKEN, HKDF_SALT, HKDF_INFO, 32)).toString('hex');
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
  let exp = now + MAX_TOKEN_LIFETIME_SECONDS;
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
