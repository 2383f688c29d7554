import { normalizeDn, singleRdnValue } from '../src/ldap/dn';
import { normalizeUid } from '../src/users/identity-store';

describe('normalizeDn', () => {
  it.each([
    ['uid=john,ou=people,dc=example,dc=com', 'uid=john,ou=people,dc=example,dc=com'],
    ['UID=John , OU=People,  DC=Example,DC=com', 'uid=john,ou=people,dc=example,dc=com'],
    ['  cn = John Smith ,ou=people', 'cn=john smith,ou=people'],
    ['cn=Smith\\, John,ou=people', 'cn=smith\\, john,ou=people'],
    ['cn=trailing\\ ,ou=x', 'cn=trailing\\ ,ou=x'],
    ['cn=a+uid=B,ou=x', 'cn=a+uid=b,ou=x'],
    ['cn=#04024869,ou=x', 'cn=#04024869,ou=x'],
    ['2.5.4.3=John,ou=x', '2.5.4.3=john,ou=x'],
    ['uid=carol', 'uid=carol'],
  ])('%s → %s', (dn, normal) => {
    expect(normalizeDn(dn)).toBe(normal);
  });

  it.each([[''], ['   '], ['John Smith'], ['uid=john,'], ['uid=jo"hn'], ['cn=a\\'], ['=x'], ['cn=#zz'], ['u id=x']])('rejects %p', (dn) => {
    expect(normalizeDn(dn)).toBeNull();
  });
});

describe('singleRdnValue', () => {
  it.each([
    ['uid=carol', 'uid', 'carol'],
    ['UID=Carol', 'uid', 'carol'],
    ['uid=a\\2cb', 'uid', 'a,b'],
    ['uid=carol,ou=people', 'uid', null],
    ['cn=carol', 'uid', null],
    ['uid=a+cn=b', 'uid', null],
  ])('%s (%s) → %p', (dn, attr, value) => {
    expect(singleRdnValue(dn, attr)).toBe(value);
  });
});

describe('normalizeUid', () => {
  it('normalises an LDAP provider DN and leaves other providers and non-DNs as given', () => {
    expect(normalizeUid('ldapmain', 'UID=John, OU=People')).toBe('uid=john,ou=people');
    expect(normalizeUid('ldapmain', 'John Smith')).toBe('John Smith');
    expect(normalizeUid('github', 'UID=John, OU=People')).toBe('UID=John, OU=People');
  });
});
