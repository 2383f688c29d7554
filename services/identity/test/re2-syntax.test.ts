import { re2SyntaxError } from '../src/push-rules/re2-syntax';

describe('re2SyntaxError', () => {
  it.each([
    ['[a-zA-Z]'],
    ['^[A-Za-z0-9.]+@gitlab.com$'],
    ['(feature|hotfix)\\/.*'],
    ['Fixed \\d+\\..*'],
    ['ssh\\:\\/\\/'],
    ['(jar|exe)$'],
    ['[x+]'],
    ['(?i)^jira-\\d{1,5}'],
    ['(?P<key>[A-Z]+)-(?:\\d+)'],
    ['a*?b+?c??'],
    ['[[:alpha:]]+\\p{Greek}\\x{41}\\x41\\012'],
    ['[]a]'],
    ['^$'],
  ])('accepts %s', (src) => {
    expect(re2SyntaxError(src)).toBeNull();
  });

  it.each([
    ['(abc', 'missing ): (abc'],
    ['abc)', 'unexpected ): abc)'],
    ['(a))', 'unexpected ): (a))'],
    ['((a)', 'missing ): ((a)'],
    ['[abc', 'missing ]: [abc'],
    ['x[a-', 'missing ]: [a-'],
    ['abc\\', 'trailing \\'],
    ['*abc', 'no argument for repetition operator: *'],
    ['a|+', 'no argument for repetition operator: +'],
    ['a**', 'bad repetition operator: **'],
    ['a++', 'bad repetition operator: ++'],
    ['a*??', 'bad repetition operator: *??'],
    ['a{2}*', 'bad repetition operator: {2}*'],
    ['a{3,2}', 'invalid repetition size: {3,2}'],
    ['a{1001}', 'invalid repetition size: {1001}'],
    ['(a)\\1', 'invalid escape sequence: \\1'],
    ['\\e', 'invalid escape sequence: \\e'],
    ['foo(?=bar)', 'invalid perl operator: (?='],
    ['(?<!x)y', 'invalid perl operator: (?<!'],
    ['[z-a]', 'invalid character class range: z-a'],
  ])('refuses %s with RE2’s message', (src, message) => {
    expect(re2SyntaxError(src)).toBe(message);
  });
});
