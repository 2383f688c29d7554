import { AccessLevel, canRead, groupAccess, RequestContext } from '../src';

const user = { id: 2, username: 'u', name: 'U', admin: false, state: 'active' };
const group = { id: 7, full_path: 'g', parent_id: null, visibility: 'private' as const, access_level: 0 };

describe('canRead with GroupScope.readable', () => {
  it.each([
    ['private', 0, true, user, true],
    ['private', 0, false, user, false],
    ['private', 0, undefined, user, false],
    ['private', 0, true, null, false],
    ['private', AccessLevel.MINIMAL, false, user, false],
    ['private', AccessLevel.MINIMAL, true, user, true],
    ['internal', 0, false, null, false],
  ] as const)('%s at level %d, readable %s, for %j → %s', (visibility, access_level, readable, u, expected) => {
    expect(canRead({ ...group, visibility, access_level, readable }, u)).toBe(expected);
  });

  it('grants reading only: the group level of a readable scope stays 0', () => {
    const ctx = { user, group: { ...group, readable: true } } as unknown as RequestContext;
    expect(groupAccess(ctx)).toBe(AccessLevel.NONE);
  });
});
