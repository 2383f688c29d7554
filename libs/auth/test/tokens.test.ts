import { canRead, constantTimeEqual, generateToken, hashToken, tokenMatches } from '../src';

describe('tokens', () => {
  it('generates distinct prefixed tokens', () => {
    const a = generateToken();
    expect(a).toMatch(/^glpat-[A-Za-z0-9_-]{26}$/);
    expect(generateToken()).not.toBe(a);
  });

  it('stores a hash, never the token', () => {
    const t = generateToken();
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).not.toContain(t);
    expect(tokenMatches(t, hashToken(t))).toBe(true);
    expect(tokenMatches(t + 'x', hashToken(t))).toBe(false);
  });

  it('compares in constant time, also for different lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('canRead', () => {
  const user = { id: 2, username: 'u', name: 'U', admin: false, state: 'active' };
  it.each([
    ['public', 0, null, true],
    ['internal', 0, null, false],
    ['internal', 0, user, true],
    ['private', 0, user, false],
    ['private', 5, user, false],
    ['private', 10, user, true],
    ['private', 0, { ...user, admin: true }, true],
  ] as const)('%s at level %d for %j → %s', (visibility, access_level, u, expected) => {
    expect(canRead({ visibility, access_level }, u)).toBe(expected);
  });
});
