import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The claims of a registry (Conan) JWT that the gateway relies on. */
export interface RegistryClaims {
  /** The personal access token's id. */
  access_token: number;
  user_id: number;
  exp: number;
}

function decode(part: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Claims whose token verified, and its `nbf` (checked again on every use, as `exp` is). */
interface Verified {
  claims: RegistryClaims;
  nbf: number | undefined;
}

/** How many verified tokens a verifier remembers; emptied when full. */
export const JWT_CACHE_ENTRIES = 10_000;

/**
 * Verifies HS256 JWTs minted by the registry — signature, `alg`, expiry and the claims' types — and
 * answers null for anything else (forged, expired, malformed, no secret configured). Tokens whose
 * signature and claims checked out are remembered by their SHA-256: a Conan client sends the same
 * token on every request, and that check is a pure function of its bytes and the secret. What depends
 * on the clock (`exp`, `nbf`) is checked on every call, hit or not; a token that failed is never
 * remembered. At most JWT_CACHE_ENTRIES, emptied when full.
 */
export class RegistryJwtVerifier {
  private readonly verified = new Map<string, Verified>();

  constructor(private readonly secret: string | undefined) {}

  verify(token: string, now = Date.now()): RegistryClaims | null {
    if (!this.secret) return null;
    const key = createHash('sha256').update(token).digest('base64');
    const hit = this.verified.get(key);
    if (hit) return timely(hit.claims.exp, hit.nbf, now) ? { ...hit.claims } : null;
    const parsed = checkRegistryJwt(token, this.secret);
    if (!parsed || !timely(parsed.claims.exp, parsed.nbf, now)) return null;
    if (this.verified.size >= JWT_CACHE_ENTRIES) this.verified.clear();
    this.verified.set(key, parsed);
    return { ...parsed.claims };
  }

  /** How many verified tokens are remembered (for tests). */
  get cachedTokens(): number {
    return this.verified.size;
  }
}

function timely(exp: number, nbf: number | undefined, now: number): boolean {
  return exp * 1000 > now && !(nbf !== undefined && nbf * 1000 > now + 60_000);
}

/** Signature, `alg` and the claims' types of a registry JWT; the clock is not consulted. */
function checkRegistryJwt(token: string, secret: string): Verified | null {
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
  return { claims: { access_token: tokenId, user_id: userId, exp }, nbf: typeof claims.nbf === 'number' ? claims.nbf : undefined };
}
