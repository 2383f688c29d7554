import { createHash } from 'node:crypto';
import { canonicalJson, derivedFingerprint, givenFingerprint, webhookFingerprint } from '../../src/payload/fingerprint';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('given fingerprints (GitLab’s Fingerprint.generate)', () => {
  it.each([
    ['abc', sha1('abc')],
    [42, sha1('42')],
    [['a', 'b'], sha1('ab')],
    [['a', ['b', ['c', 1]]], sha1('abc1')],
    [['a', null], sha1('a')],
    ['', null],
    ['   ', null],
    [[], null],
    [null, null],
  ])('%j → %s', (given, expected) => {
    expect(givenFingerprint(given)).toBe(expected);
  });
});

describe('derived fingerprints', () => {
  it('ignore start_time, end_time, hosts and key order', () => {
    const a = derivedFingerprint({ title: 't', service: 's', start_time: '2026-01-01T00:00:00Z', hosts: ['a'] });
    expect(derivedFingerprint({ service: 's', title: 't', start_time: '2027-01-01T00:00:00Z', end_time: 'x', hosts: 'b' })).toBe(a);
    expect(a).toBe(sha1('{"service":"s","title":"t"}'));
    expect(derivedFingerprint({ title: 't', service: 'other' })).not.toBe(a);
  });

  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }], a: null })).toBe('{"a":null,"b":[{"a":2,"z":1}]}');
  });
});

describe('webhook fingerprints', () => {
  it('hash startsAt as sent, the title and the query', () => {
    expect(webhookFingerprint('2026-11-22T00:55:23.208Z', 'CPU', 'up == 0')).toBe(sha1('2026-11-22T00:55:23.208Z/CPU/up == 0'));
  });
});
