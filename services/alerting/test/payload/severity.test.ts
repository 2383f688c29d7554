import { nativeSeverity, webhookSeverity } from '../../src/payload/severity';

describe('webhook severity mapping', () => {
  it.each([
    ['critical', 'critical'], ['S1', 'critical'], ['p1', 'critical'], ['Emergency', 'critical'], ['fatal', 'critical'],
    ['high', 'high'], ['s2', 'high'], ['P2', 'high'], ['major', 'high'], ['page', 'high'],
    ['medium', 'medium'], ['s3', 'medium'], ['p3', 'medium'], ['ERROR', 'medium'], ['alert', 'medium'],
    ['low', 'low'], ['s4', 'low'], ['p4', 'low'], ['warn', 'low'], ['Warning', 'low'], ['minor', 'low'],
    ['info', 'info'], ['s5', 'info'], ['p5', 'info'], ['debug', 'info'], ['information', 'info'], ['notice', 'info'],
    ['Bogus-Level', 'critical'], ['unknown', 'critical'], ['', 'critical'], [null, 'critical'], ['constructor', 'critical'], ['__proto__', 'critical'],
  ])('%s → %s', (given, expected) => {
    expect(webhookSeverity(given)).toBe(expected);
  });
});

describe('native severity', () => {
  it.each([
    ['critical', 'critical'], ['HIGH', 'high'], ['Medium', 'medium'], ['low', 'low'], ['info', 'info'], ['unknown', 'unknown'],
    ['s2', 'critical'], ['warning', 'critical'], [null, 'critical'],
  ])('%s → %s', (given, expected) => {
    expect(nativeSeverity(given)).toBe(expected);
  });
});
