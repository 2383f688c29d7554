import { JWT_CACHE_ENTRIES, RegistryJwtVerifier } from '../src/jwt';
import { registryJwt } from './support/fixtures';

const SECRET = 'registry-jwt-test-secret';
const now = Date.parse('2026-11-23T12:00:00Z');
const sec = (ms: number) => Math.floor(ms / 1000);

describe('registry JWT verification', () => {
  it('accepts a token of the registry and remembers it, checking its expiry again on every use', () => {
    const v = new RegistryJwtVerifier(SECRET);
    const token = registryJwt(SECRET, { access_token: 7, user_id: 3, exp: sec(now) + 60 });
    expect(v.verify(token, now)).toEqual({ access_token: 7, user_id: 3, exp: sec(now) + 60 });
    expect(v.cachedTokens).toBe(1);
    expect(v.verify(token, now + 30_000)).toEqual({ access_token: 7, user_id: 3, exp: sec(now) + 60 });
    expect(v.cachedTokens).toBe(1);
    // remembered, and still refused once expired
    expect(v.verify(token, now + 60_000)).toBeNull();
  });

  it('refuses a token not yet valid (nbf more than a minute ahead), remembered or not', () => {
    const v = new RegistryJwtVerifier(SECRET);
    const token = registryJwt(SECRET, { access_token: 1, user_id: 1, exp: sec(now) + 3600, nbf: sec(now) + 600 });
    expect(v.verify(token, now)).toBeNull();
    expect(v.verify(token, now + 600_000)).not.toBeNull();
    expect(v.verify(token, now)).toBeNull();
  });

  it.each([
    ['signed with another secret', registryJwt(`${SECRET}x`, { access_token: 1, user_id: 1, exp: sec(now) + 60 })],
    ['of another algorithm', (() => {
      const t = registryJwt(SECRET, { access_token: 1, user_id: 1, exp: sec(now) + 60 }).split('.');
      return [Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url'), t[1], t[2]].join('.');
    })()],
    ['with a claim of the wrong type', registryJwt(SECRET, { access_token: 'x', user_id: 1, exp: sec(now) + 60 })],
    ['malformed', 'eyJ.not-a-token'],
  ])('refuses a token %s and never remembers it', (_what, token) => {
    const v = new RegistryJwtVerifier(SECRET);
    expect(v.verify(token, now)).toBeNull();
    expect(v.verify(token, now)).toBeNull();
    expect(v.cachedTokens).toBe(0);
  });

  it('refuses everything without a secret, and answers each caller its own copy of the claims', () => {
    const token = registryJwt(SECRET, { access_token: 1, user_id: 1, exp: sec(now) + 60 });
    expect(new RegistryJwtVerifier(undefined).verify(token, now)).toBeNull();
    const v = new RegistryJwtVerifier(SECRET);
    const first = v.verify(token, now)!;
    first.user_id = 99;
    expect(v.verify(token, now)!.user_id).toBe(1);
  });

  it(`remembers at most ${JWT_CACHE_ENTRIES} tokens`, () => {
    const v = new RegistryJwtVerifier(SECRET);
    for (let i = 0; i <= JWT_CACHE_ENTRIES; i++) v.verify(registryJwt(SECRET, { access_token: i, user_id: 1, exp: sec(now) + 60 }), now);
    expect(v.cachedTokens).toBeLessThanOrEqual(JWT_CACHE_ENTRIES);
    expect(v.cachedTokens).toBeGreaterThan(0);
  });
});
