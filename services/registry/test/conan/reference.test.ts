import {
  CONAN_FILES,
  fullPathFromUsername,
  isComponent,
  isUserOrChannel,
  packageRefString,
  parseReference,
  recipeRefErrors,
  recipeString,
  REVISION_V1_RE,
  REVISION_V2_RE,
  soleBlankField,
  usernameFromFullPath,
} from '../../src/conan/reference';

describe('recipe reference parts', () => {
  it.each([
    ['hello', true],
    ['ab', true],
    ['a', false],
    ['_x', true],
    ['1.0.0-rc+build.1', true],
    ['a'.repeat(50), true],
    ['a'.repeat(51), false],
    ['-lead', false],
    ['.dot', false],
    ['..', false],
    ['has space', false],
    ['has/slash', false],
    ['ünï', false],
    ['', false],
    ['_', false],
  ])('name/version %j is %s', (s, ok) => {
    expect(isComponent(s)).toBe(ok);
  });

  it.each([
    ['_', true],
    ['group+project', true],
    ['stable', true],
    ['a', false],
    ['__', true],
    ['+x', false],
  ])('username/channel %j is %s', (s, ok) => {
    expect(isUserOrChannel(s)).toBe(ok);
  });

  it('lists Grape errors in declaration order', () => {
    expect(recipeRefErrors({ name: 'ok', version: 'x', username: 'g+p', channel: '.' })).toEqual([
      'package_version is invalid',
      'package_channel is invalid',
    ]);
    expect(recipeRefErrors({ name: 'ok', version: '1.0', username: '_', channel: '_' })).toEqual([]);
  });

  it.each([
    ['g+p', 'stable', null],
    ['_', '_', null],
    ['_', 'stable', 'username'],
    ['g+p', '_', 'channel'],
  ])('username %s channel %s → sole blank %s', (u, c, expected) => {
    expect(soleBlankField(u, c)).toBe(expected);
  });
});

describe('revisions', () => {
  it.each([
    ['0', false, true],
    ['d41d8cd98f00b204e9800998ecf8427e', true, false],
    ['D41D8CD98F00B204E9800998ECF8427E', true, false],
    ['da39a3ee5e6b4b0d3255bfef95601890afd80709', true, false],
    ['da39a3ee5e6b4b0d3255bfef95601890afd8070', false, false],
    ['g41d8cd98f00b204e9800998ecf8427e', false, false],
    ['00', false, false],
  ])('%s: v2 %s, v1 %s', (rev, v2, v1) => {
    expect(REVISION_V2_RE.test(rev)).toBe(v2);
    expect(REVISION_V1_RE.test(rev)).toBe(v1);
  });
});

describe('strings and usernames', () => {
  const ref = { name: 'hello', version: '1.0', username: 'group+project', channel: 'stable' };
  it('formats recipe and package references', () => {
    expect(recipeString(ref)).toBe('hello/1.0@group+project/stable');
    expect(packageRefString(ref, 'abc', 'def')).toBe('hello/1.0@group+project/stable#abc:def');
  });

  it.each([
    ['group+sub+project', 'group/sub/project'],
    ['plain', 'plain'],
  ])('%s ↔ %s', (user, path) => {
    expect(fullPathFromUsername(user)).toBe(path);
    expect(usernameFromFullPath(path)).toBe(user);
  });

  it('knows the six file names', () => {
    expect([...CONAN_FILES].sort()).toEqual(['conan_export.tgz', 'conan_package.tgz', 'conan_sources.tgz', 'conanfile.py', 'conaninfo.txt', 'conanmanifest.txt']);
  });
});

describe('parseReference', () => {
  it.each([
    ['hello/1.0', { name: 'hello', version: '1.0', username: '_', channel: '_' }],
    ['hello/1.0@g+p/stable', { name: 'hello', version: '1.0', username: 'g+p', channel: 'stable' }],
    ['hello/1.0@g+p/stable#abc', { name: 'hello', version: '1.0', username: 'g+p', channel: 'stable', recipeRevision: 'abc' }],
    [
      'hello/1.0@g+p/stable#r1:pkg1#p1',
      { name: 'hello', version: '1.0', username: 'g+p', channel: 'stable', recipeRevision: 'r1', packageReference: 'pkg1', packageRevision: 'p1' },
    ],
    ['hello/1.0:pkg', { name: 'hello', version: '1.0', username: '_', channel: '_', packageReference: 'pkg' }],
    ['hello', null],
    ['hello/1.0@g+p', null],
    ['hello/1.0@_/stable', null],
    ['h/1.0', null],
    ['hello/1.0:pk-g', null],
    ['hello/1.0/extra', null],
  ])('%s', (s, expected) => {
    expect(parseReference(s)).toEqual(expected);
  });
});
