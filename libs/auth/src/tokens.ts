import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Personal access token prefix, as GitLab's default. */
export const PAT_PREFIX = 'glpat-';

/** A new random token: prefix + 26 url-safe characters (~156 bits). */
export function generateToken(prefix = PAT_PREFIX): string {
  return prefix + randomBytes(20).toString('base64url').slice(0, 26);
}

/** The at-rest form of a token: SHA-256 hex. Tokens are high-entropy, so no salt/KDF is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two strings in constant time for equal lengths (length itself is not secret here). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ba.length !== bb.length) {
    timingSafeEqual(ba, ba);
    return false;
  }
  return timingSafeEqual(ba, bb);
}

/** True when `token` hashes to `storedHash`, compared in constant time. */
export function tokenMatches(token: string, storedHash: string): boolean {
  return constantTimeEqual(hashToken(token), storedHash);
}
