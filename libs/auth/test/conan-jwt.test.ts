import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ConanJwtVerifier, conanJwtSecret, JWT_CACHE_ENTRIES, mintConanJwt, monthsLater, verifyConanJwt } from '../src';

/** A token made by hand: HMAC-SHA256 over `header.payload` keyed with the secret string's UTF-8 bytes. */
function handMade(secret: string, claims: Record<string, unknown>): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Whether the token's signature is HMAC-SHA256 over `header.payload` keyed with the secret's UTF-8 bytes. */
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
    expect(() => conanJwtSecret({}, 'gateway')).toThrow(/^gateway: CONAN_JWT_SECRET is required/);
  });

  it.each(secrets)('mints tokens keyed with the UTF-8 bytes of the secret (%s), as the gateway verifies them', (_name, secret) => {
    const token = mintConanJwt(secret, { access_token: 4, user_id: 9 }, null);
    expect(hmacMatches(token, secret)).toBe(true);
    expect(verifyConanJwt(secret, token)).toEqual({ access_token: 4, user_id: 9 });
    expect(new ConanJwtVerifier(secret).verify(token)).toMatchObject({ access_token: 4, user_id: 9 });
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

describe('registry JWT verification with remembered tokens', () => {
  const SECRET = 'registry-jwt-test-secret';
  const now = Date.parse('2026-11-23T12:00:00Z');
  const sec = (ms: number) => Math.floor(ms / 1000);

  it('accepts a token of the registry and remembers it, checking its expiry again on every use', () => {
    const v = new ConanJwtVerifier(SECRET);
    const token = handMade(SECRET, { access_token: 7, user_id: 3, exp: sec(now) + 60 });
    expect(v.verify(token, now)).toEqual({ access_token: 7, user_id: 3, exp: sec(now) + 60 });
    expect(v.cachedTokens).toBe(1);
    expect(v.verify(token, now + 30_000)).toEqual({ access_token: 7, user_id: 3, exp: sec(now) + 60 });
    expect(v.cachedTokens).toBe(1);
    // remembered, and still refused once expired
    expect(v.verify(token, now + 60_000)).toBeNull();
  });

  it('accepts a token the registry minted', () => {
    const token = mintConanJwt(SECRET, { access_token: 7, user_id: 3 }, null, now);
    expect(new ConanJwtVerifier(SECRET).verify(token, now)).toMatchObject({ access_token: 7, user_id: 3 });
  });

  it('refuses a token not yet valid (nbf more than a minute ahead), remembered or not', () => {
    const v = new ConanJwtVerifier(SECRET);
    const token = handMade(SECRET, { access_token: 1, user_id: 1, exp: sec(now) + 3600, nbf: sec(now) + 600 });
    expect(v.verify(token, now)).toBeNull();
    expect(v.verify(token, now + 600_000)).not.toBeNull();
    expect(v.verify(token, now)).toBeNull();
  });

  it.each([
    ['signed with another secret', handMade(`${SECRET}x`, { access_token: 1, user_id: 1, exp: sec(now) + 60 })],
    ['of another algorithm', (() => {
      const t = handMade(SECRET, { access_token: 1, user_id: 1, exp: sec(now) + 60 }).split('.');
      return [Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url'), t[1], t[2]].join('.');
    })()],
    ['with a claim of the wrong type', handMade(SECRET, { access_token: 'x', user_id: 1, exp: sec(now) + 60 })],
    ['malformed', 'eyJ.not-a-token'],
  ])('refuses a token %s and never remembers it', (_what, token) => {
    const v = new ConanJwtVerifier(SECRET);
    expect(v.verify(token, now)).toBeNull();
    expect(v.verify(token, now)).toBeNull();
    expect(v.cachedTokens).toBe(0);
  });

  it('refuses everything without a secret, and answers each caller its own copy of the claims', () => {
    const token = handMade(SECRET, { access_token: 1, user_id: 1, exp: sec(now) + 60 });
    expect(new ConanJwtVerifier(undefined).verify(token, now)).toBeNull();
    const v = new ConanJwtVerifier(SECRET);
    const first = v.verify(token, now)!;
    first.user_id = 99;
    expect(v.verify(token, now)!.user_id).toBe(1);
  });

  it(`remembers at most ${JWT_CACHE_ENTRIES} tokens`, () => {
    const v = new ConanJwtVerifier(SECRET);
    for (let i = 0; i <= JWT_CACHE_ENTRIES; i++) v.verify(handMade(SECRET, { access_token: i, user_id: 1, exp: sec(now) + 60 }), now);
    expect(v.cachedTokens).toBeLessThanOrEqual(JWT_CACHE_ENTRIES);
    expect(v.cachedTokens).toBeGreaterThan(0);
  });
});
