import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The claims of a registry (Conan) JWT that the gateway relies on. */
export interface RegistryClaims {
  /** The personal access token's id. */
  access_token: number;
  user_id: number;
  exp: number;
}

/**
 * The HS256 key of registry JWTs, computed exactly as the registry does: `CONAN_JWT_SECRET` when set,
 * else 32 bytes derived from `INTERNAL_API_TOKEN` with HKDF-SHA256 (salt `anvil-conan-jwt`, info
 * `conan-jwt-hs256`), hex-encoded.
 */
export function registryJwtSecret(conanSecret: string | undefined, internalToken: string | undefined): string | undefined {
  if (conanSecret) return conanSecret;
  if (!internalToken) return undefined;
  return Buffer.from(hkdfSync('sha256', internalToken, 'anvil-conan-jwt', 'conan-jwt-hs256', 32)).toString('hex');
}

/** True when `token` has the shape of a JWT (three base64url parts, JSON header). */
export function looksLikeJwt(token: string): boolean {
  return token.startsWith('eyJ') && token.split('.').length === 3;
}

function decode(part: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Verifies an HS256 JWT minted by the registry: signature, `alg`, expiry and the claims' types.
 * Returns null for anything else (forged, expired, malformed, no secret configured).
 */
export function verifyRegistryJwt(token: string, secret: string | undefined, now = Date.now()): RegistryClaims | null {
  if (!secret) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const header = decode(parts[0]);
  if (header?.alg !== 'HS256') return null;
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = decode(parts[1]);
  if (!claims) return null;
  const tokenId = Number(claims.access_token);
  const userId = Number(claims.user_id);
  const exp = Number(claims.exp);
  if (!Number.isInteger(tokenId) || !Number.isInteger(userId) || !Number.isFinite(exp)) return null;
  if (exp * 1000 <= now) return null;
  if (typeof claims.nbf === 'number' && claims.nbf * 1000 > now + 60_000) return null;
  return { access_token: tokenId, user_id: userId, exp };
}
