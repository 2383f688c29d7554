import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost parameters (N = 2^14, r = 8, p = 1: ~16 MB, tens of ms). */
const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A self-describing digest `scrypt$N$r$p$salt$hash` (base64url parts) with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches `digest` (compared in constant time); false for a malformed digest. */
export async function verifyPassword(password: string, digest: string | null): Promise<boolean> {
  if (!digest) return false;
  const parts = digest.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(password, Buffer.from(parts[4], 'base64url'), n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A random password for `force_random_password` (never shown to anyone). */
export function randomPassword(): string {
  return randomBytes(24).toString('base64url');
}
