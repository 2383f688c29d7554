import { InvalidKeyError, compareKeys, validateKey, validatePrefix } from '../src';

describe('validateKey', () => {
  it.each(['a', 'a/b/c.txt', 'conan/zlib/1.2.13/_/_/0/export/conanfile.py', 'x..y', '.hidden', 'a/.anvil-tmp', 'ünï/cödé'])(
    'accepts %j',
    (key) => expect(validateKey(key)).toBe(key),
  );

  it.each([
    ['', 'is empty'],
    ['/abs', 'is absolute'],
    ['C:/x', 'is absolute'],
    ['..', 'has a ".." segment'],
    ['a/../b', 'has a ".." segment'],
    ['./a', 'has a "." segment'],
    ['a//b', 'has an empty segment'],
    ['a/', 'has an empty segment'],
    ['a\\b', 'contains a backslash'],
    ['a\0b', 'contains NUL'],
    ['.anvil-tmp/x', '.anvil-tmp is reserved'],
    ['k'.repeat(1025), 'is longer than 1024 bytes'],
  ])('rejects %j (%s)', (key, reason) => {
    expect(() => validateKey(key)).toThrow(InvalidKeyError);
    expect(() => validateKey(key)).toThrow(reason);
  });
});

describe('validatePrefix', () => {
  it.each(['', 'a', 'a/', 'a/b', 'a/b/', 'pkg/1'])('accepts %j', (p) => expect(validatePrefix(p)).toBe(p));
  it.each(['/', '/a', '../', 'a/../', 'a//', 'a\\', 'a\0', '..'])('rejects %j', (p) => {
    expect(() => validatePrefix(p)).toThrow(InvalidKeyError);
  });
});

describe('compareKeys', () => {
  it('orders by UTF-8 bytes like S3', () => {
    expect(['a/b', 'a-c', 'a', '\u{1F600}', '\uFFFD'].sort(compareKeys)).toEqual(['a', 'a-c', 'a/b', '\uFFFD', '\u{1F600}']);
  });
});
