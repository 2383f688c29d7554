import {
  parseAward, parseEstimate, parseLabels, parseMilestone, parseSpend, parseUsers, parseYmd, resolveUsers, toSentence,
} from '../../src/quick-actions/arguments';

describe('parseLabels', () => {
  it.each([
    ['~bug', [], ['bug']],
    ['~bug ~"to do"', [], ['bug', 'to do']],
    ['~12 ~bug', [12], ['bug']],
    ['~"a b" ~a ~a', [], ['a b', 'a']],
    ['~scope::value', [], ['scope::value']],
    ['bug "to do" feature', [], ['bug', 'to do', 'feature']],
    ['bug ~feature', [], ['feature']],
    ['"A" "A B C" A B', [], ['A', 'A B C', 'B']],
    ['', [], []],
  ])('%j', (arg, ids, names) => {
    expect(parseLabels(arg)).toEqual({ ids, names });
  });
  it('is empty without an argument', () => expect(parseLabels(null)).toEqual({ ids: [], names: [] }));
});

describe('parseUsers', () => {
  it.each([
    ['@u1 @u2', false, ['@u1', '@u2'], ['u1', 'u2']],
    ['me', true, [], []],
    ['me and @jane and jack', true, ['@jane', 'jack'], ['jane', 'jack']],
    ['@a,@b, @c', false, ['@a', '@b', '@c'], ['a', 'b', 'c']],
    ['@a @a', false, ['@a'], ['a']],
    ['@snake\\_case', false, ['@snake_case'], ['snake_case']],
    ['', false, [], []],
  ])('%j', (arg, me, references, usernames) => {
    expect(parseUsers(arg)).toEqual({ me, references, usernames });
  });
});

describe('resolveUsers', () => {
  const me = { id: 1, username: 'root' };
  const jane = { id: 2, username: 'Jane' };
  it.each([
    ['@jane', [jane], { users: [jane] }],
    ['me @jane', [jane], { users: [me, jane] }],
    ['@nobody', [], { error: "Failed to find users for '@nobody'" }],
    ['a b', [], { error: "Failed to find users for 'a' and 'b'" }],
  ])('%j', (arg, found, expected) => {
    expect(resolveUsers(parseUsers(arg), found, me)).toEqual(expected);
  });
  it('refuses more than 100 references', () => {
    const arg = Array.from({ length: 101 }, (_, i) => `@u${i}`).join(' ');
    expect(resolveUsers(parseUsers(arg), [], me)).toEqual({ error: 'Too many references. Quick actions are limited to at most 100 user references' });
  });
});

describe('toSentence', () => {
  it.each([[[], ''], [['@a'], '@a'], [['@a', '@b'], '@a and @b'], [['@a', '@b', '@c'], '@a, @b and @c']])('%j', (items, s) => {
    expect(toSentence(items)).toBe(s);
  });
});

describe('parseMilestone', () => {
  it.each([
    ['%3', { iid: 3, title: null, fallbackTitle: '%3' }],
    ['%v1.0', { iid: null, title: 'v1.0', fallbackTitle: '%v1.0' }],
    ['%"Sprint 4"', { iid: null, title: 'Sprint 4', fallbackTitle: '%"Sprint 4"' }],
    [' Sprint 4 ', { iid: null, title: null, fallbackTitle: 'Sprint 4' }],
  ])('%j', (arg, expected) => {
    expect(parseMilestone(arg)).toEqual(expected);
  });
});

describe('parseEstimate', () => {
  it.each([['1w 3d 2h 14m', 144000 + 3 * 28800 + 2 * 3600 + 14 * 60], ['1d 2h', 28800 + 7200], ['0', 0], ['3', 10800], ['foo', 0], [' 30m ', 1800]])('%j', (arg, s) => {
    expect(parseEstimate(arg)).toBe(s);
  });
});

describe('parseSpend', () => {
  const today = '2024-06-15';
  it.each([
    ['1h 30m', { seconds: 5400, date: null, category: null }],
    ['-30m', { seconds: -1800, date: null, category: null }],
    ['1h 2024-06-01', { seconds: 3600, date: '2024-06-01', category: null }],
    ['1h 2024-06-15', { seconds: 3600, date: '2024-06-15', category: null }],
    ['2h 2024/6/1', { seconds: 7200, date: '2024-06-01', category: null }],
    ['1h 24.06.01', { seconds: 3600, date: '2024-06-01', category: null }],
    ['1h [timecategory:dev]', { seconds: 3600, date: null, category: 'dev' }],
    ['1h 2024-06-01 [timecategory:dev ops]', { seconds: 3600, date: '2024-06-01', category: 'dev ops' }],
    ['1h 2024-06-16', null],
    ['1h 2024-02-30', null],
    ['', null],
    ['foo', { seconds: null, date: null, category: null }],
  ])('%j', (arg, expected) => {
    expect(parseSpend(arg, today)).toEqual(expected);
  });
});

describe('parseYmd', () => {
  it.each([['2017-01-02', '2017-01-02'], ['17-1-2', '2017-01-02'], ['99/12/31', '1999-12-31'], ['2024-13-01', null]])('%j', (s, d) => {
    expect(parseYmd(s)).toBe(d);
  });
});

describe('parseAward', () => {
  it.each([
    [':thumbsup:', 'thumbsup'],
    [':+1:', '+1'],
    ['  :tada: thanks', 'tada'],
    [':nope: :heart:', 'heart'],
    ['thumbsup', null],
    ['a:heart:', null],
  ])('%j', (arg, name) => {
    expect(parseAward(arg)).toBe(name);
  });
  it('accepts custom emoji the caller knows', () => {
    expect(parseAward(':party_parrot:', (n) => n === 'party_parrot')).toBe('party_parrot');
  });
});
