import { likePattern, planSearch } from '../../src/conan/search-query';

describe('planSearch', () => {
  it.each<[string, unknown]>([
    ['*', { kind: 'empty' }],
    ['', { kind: 'empty' }],
    ['@g+p', { kind: 'empty' }],
    ['*/*', { kind: 'empty' }],
    ['hello', { kind: 'search', name: { op: 'like', value: 'hello' }, version: undefined, username: undefined }],
    ['hel*', { kind: 'search', name: { op: 'like', value: 'hel%' }, version: undefined, username: undefined }],
    ['*/1.0', { kind: 'search', name: { op: 'like', value: '%' }, version: { op: 'eq', value: '1.0' }, username: undefined }],
    ['hello/1.*', { kind: 'search', name: { op: 'like', value: 'hello' }, version: { op: 'like', value: '1.%' }, username: undefined }],
    ['my_lib/1_0', { kind: 'search', name: { op: 'like', value: 'my\\_lib' }, version: { op: 'eq', value: '1_0' }, username: undefined }],
    ['100%/x', { kind: 'search', name: { op: 'like', value: '100\\%' }, version: { op: 'eq', value: 'x' }, username: undefined }],
    [
      'hello/1.0@group+proj/stable',
      { kind: 'search', name: { op: 'like', value: 'hello' }, version: { op: 'eq', value: '1.0' }, username: 'group+proj' },
    ],
    // the username is kept as written: instance level finds no project by it, project level ignores it
    ['hello/1.0@g*/stable', { kind: 'search', name: { op: 'like', value: 'hello' }, version: { op: 'eq', value: '1.0' }, username: 'g*' }],
  ])('%j', (q, plan) => {
    expect(planSearch(q)).toEqual(plan);
  });

  it('refuses terms over 200 characters', () => {
    expect(planSearch('a'.repeat(200)).kind).toBe('search');
    expect(planSearch('a'.repeat(201))).toEqual({ kind: 'error', message: 'Search term length must be less than 200 characters.' });
  });

  it('refuses more than five wildcards', () => {
    expect(planSearch('a*b*c*d*e*').kind).toBe('search');
    expect(planSearch('a*b*c*d*e*f*')).toEqual({ kind: 'error', message: 'Too many wildcards in search term. Maximum is 5.' });
  });

  it('escapes LIKE metacharacters', () => {
    expect(likePattern('a\\b%c_d*')).toBe('a\\\\b\\%c\\_d%');
  });
});
