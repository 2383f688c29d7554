import { createHash, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/**
 * Conan registry JWTs, as GitLab's ConanToken: HS256 over the UTF-8 bytes of `CONAN_JWT_SECRET`, with
 * `access_token` (the personal access token's id), `user_id`, `jti`, `iat`, `nbf` and `exp`. The
 * registry mints them; the gateway verifies them on every Conan request.
 */

/** GitLab caps a registry token's life at three calendar months (`MAX_CONAN_TOKEN_EXPIRE_TIME = 3.months`). */
export const MAX_TOKEN_LIFETIME_MONTHS = 3;
/** `nbf` is set this far in the past, as GitLab's JSONWebToken::Token does. */
export const NOT_BEFORE_LEEWAY_SECONDS = 5;
/** A token whose `nbf` is at most this far ahead of the verifier's clock is accepted (clock skew). */
export const NOT_BEFORE_TOLERANCE_MS = 60_000;
/** How many verified tokens a ConanJwtVerifier remembers; emptied when full. */
export const JWT_CACHE_ENTRIES = 10_000;

/** What a registry JWT carries: the personal access token's id and its user's id. */
export interface ConanTokenClaims {
  access_token: number;
  user_id: number;
}

/** The claims of a verified token, with its expiry (epoch seconds). */
export interface VerifiedConanClaims extends ConanTokenClaims {
  exp: number;
}

/**
 * The HS256 key of registry JWTs: `CONAN_JWT_SECRET`, which only the registry (it mints them) and the
 * gateway (it verifies them) hold. There is no fallback: a key derived from a setting every service
 * holds would let any of them mint a registry identity. `holder` names the process in the error.
 */
export function conanJwtSecret(config: { CONAN_JWT_SECRET?: string }, holder = 'registry'): string {
  if (!config.CONAN_JWT_SECRET) throw new Error(`${holder}: CONAN_JWT_SECRET is required (HS256 key of the Conan registry JWTs; the registry and the gateway hold the same)`);
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
 * The HMAC key for `secret`: its UTF-8 bytes. Built once per secret: given a string, jsonwebtoken
 * first tries to parse it as a PEM key on every call (~0.4 ms).
 */
function hmacKey(secret: string): KeyObject {
  if (memo?.secret !== secret) memo = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return memo.key;
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

/** A token whose signature, `alg` and claim types checked out, and its `nbf`; the clock not yet consulted. */
interface Checked {
  claims: VerifiedConanClaims;
  nbf: number | undefined;
}

/** Signature (HS256 only) and the claims' types: integer ids, numeric `exp` and, when present, `nbf`. */
function checkConanJwt(token: string, key: KeyObject): Checked | null {
  let p: unknown;
  try {
    p = jwt.verify(token, key, { algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true });
  } catch {
    return null;
  }
  if (typeof p !== 'object' || p === null) return null;
  const { access_token, user_id, exp, nbf } = p as Record<string, unknown>;
  if (!Number.isInteger(access_token) || !Number.isInteger(user_id) || typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  if (nbf !== undefined && typeof nbf !== 'number') return null;
  return { claims: { access_token: access_token as number, user_id: user_id as number, exp }, nbf };
}

/** Whether a checked token is valid at `nowMs`: not expired, and not before its `nbf` (beyond the tolerance). */
function timely({ claims, nbf }: Checked, nowMs: number): boolean {
  return claims.exp * 1000 > nowMs && !(nbf !== undefined && nbf * 1000 > nowMs + NOT_BEFORE_TOLERANCE_MS);
}

/** The claims of a valid, unexpired registry JWT signed with `secret`; null for anything else. */
export function verifyConanJwt(secret: string, token: string, nowMs = Date.now()): ConanTokenClaims | null {
  const checked = checkConanJwt(token, hmacKey(secret));
  if (!checked || !timely(checked, nowMs)) return null;
  return { access_token: checked.claims.access_token, user_id: checked.claims.user_id };
}

/**
 * verifyConanJwt for a process that verifies the same tokens again and again: tokens whose signature
 * and claims checked out are remembered by their SHA-256 (that check is a pure function of the
 * token's bytes and the secret), while `exp` and `nbf` are checked on every call, hit or not. A token
 * that failed is never remembered. Without a secret, every token is refused. Each caller gets its
 * own copy of the claims. At most JWT_CACHE_ENTRIES, emptied when full.
 */
export class ConanJwtVerifier {
  private readonly verified = new Map<string, Checked>();
  private readonly key: KeyObject | null;

  constructor(secret: string | undefined) {
    this.key = secret ? createSecretKey(Buffer.from(secret, 'utf8')) : null;
  }

  verify(token: string, nowMs = Date.now()): VerifiedConanClaims | null {
    if (!this.key) return null;
    const digest = createHash('sha256').update(token).digest('base64');
    let checked = this.verified.get(digest);
    if (!checked) {
      const fresh = checkConanJwt(token, this.key);
      if (!fresh || !timely(fresh, nowMs)) return null;
      if (this.verified.size >= JWT_CACHE_ENTRIES) this.verified.clear();
      this.verified.set(digest, (checked = fresh));
    }
    return timely(checked, nowMs) ? { ...checked.claims } : null;
  }

  /** How many verified tokens are remembered. */
  get cachedTokens(): number {
    return this.verified.size;
  }
}
