import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { conanJwtSecret, mintConanJwt, monthsLater, verifyConanJwt } from '../../src/auth/jwt';

/** The gateway's check: HMAC-SHA256 over `header.payload` keyed with the secret string's UTF-8 bytes. */
function hmacMatches(token: string, secret: string): boolean {
  const [h, p, s] = token.split('.');
  return createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') === s;
}

describe('registry JWT key', () => {
  const secrets = [
    ['non-ASCII', conanJwtSecret({ CONAN_JWT_SECRET: 'plain sécret ✓' })],
    ['hex', conanJwtSecret({ CONAN_JWT_SECRET: 'a3'.repeat(32) })],
  ];

  it('is required: nothing is derived from a setting every service holds', () => {
    expect(() => conanJwtSecret({})).toThrow('CONAN_JWT_SECRET is required');
    expect(() => conanJwtSecret({ CONAN_JWT_SECRET: '', INTERNAL_API_TOKEN: 'internal-token' } as { CONAN_JWT_SECRET?: string })).toThrow('CONAN_JWT_SECRET is required');
  });

  it.each(secrets)('mints tokens keyed with the UTF-8 bytes of the secret (%s), as the gateway verifies them', (_name, secret) => {
    const token = mintConanJwt(secret, { access_token: 4, user_id: 9 }, null);
    expect(hmacMatches(token, secret)).toBe(true);
    expect(verifyConanJwt(secret, token)).toEqual({ access_token: 4, user_id: 9 });
  });

  it.each(secrets)('accepts tokens signed with the secret as a string, as before (%s)', (_name, secret) => {
    const now = Math.floor(Date.now() / 1000);
    const token = jwt.sign({ access_token: 1, user_id: 2, iat: now, nbf: now - 5, exp: now + 60 }, secret, { algorithm: 'HS256' });
    expect(verifyConanJwt(secret, token)).toEqual({ access_token: 1, user_id: 2 });
  });

  it('refuses a token signed with another secret, also after a key for it was built', () => {
    const a = mintConanJwt('secret-a', { access_token: 1, user_id: 2 }, null);
    const b = mintConanJwt('secret-b', { access_token: 1, user_id: 2 }, null);
    expect(verifyConanJwt('secret-a', b)).toBeNull();
    expect(verifyConanJwt('secret-b', a)).toBeNull();
    expect(verifyConanJwt('secret-a', a)).toEqual({ access_token: 1, user_id: 2 });
  });

  it('refuses an expired token', () => {
    const token = mintConanJwt('s', { access_token: 1, user_id: 2 }, null, Date.now() - 100 * 86400_000);
    expect(verifyConanJwt('s', token)).toBeNull();
  });
});

describe('token lifetime: three calendar months at most, as GitLab\'s 3.months.from_now', () => {
  const at = (iso: string) => Date.parse(iso) / 1000;
  it.each([
    ['2026-01-15T10:20:30Z', '2026-04-15T10:20:30Z'],
    ['2026-11-30T23:59:59Z', '2027-02-28T23:59:59Z'],
    ['2027-11-30T00:00:00Z', '2028-02-29T00:00:00Z'],
    ['2026-05-31T12:00:00Z', '2026-08-31T12:00:00Z'],
    ['2026-12-31T08:00:00Z', '2027-03-31T08:00:00Z'],
  ])('%s → %s', (from, to) => {
    expect(monthsLater(at(from), 3)).toBe(at(to));
  });

  it('a token without an expiry gets exactly that; one that expires sooner, the start of its day', () => {
    const now = Date.parse('2026-11-30T09:00:00Z');
    const claims = (t: string) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString()) as { exp: number; iat: number };
    expect(claims(mintConanJwt('s', { access_token: 1, user_id: 2 }, null, now)).exp).toBe(at('2027-02-28T09:00:00Z'));
    expect(claims(mintConanJwt('s', { access_token: 1, user_id: 2 }, '2026-12-24', now)).exp).toBe(at('2026-12-24T00:00:00Z'));
    expect(claims(mintConanJwt('s', { access_token: 1, user_id: 2 }, '2028-01-01', now)).exp).toBe(at('2027-02-28T09:00:00Z'));
  });
});
