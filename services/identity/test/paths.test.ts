import { isNumericRef, namespacePathErrors, parameterize, projectNameErrors, projectPathErrors, splitFullPath } from '../src/namespaces/paths';

describe('namespace paths', () => {
  it.each([
    ['group', true, []],
    ['my.group_1-x', true, []],
    ['-starts', true, 1],
    ['ends.', true, 1],
    ['repo.git', true, 1],
    ['feed.atom', true, 1],
    ['has space', true, 1],
    ['api', true, ['is a reserved name']],
    ['api', false, []],
    ['', true, ["can't be blank"]],
  ] as const)('%j (top level %s)', (path, top, expected) => {
    const errs = namespacePathErrors(path, top);
    if (typeof expected === 'number') expect(errs).toHaveLength(expected);
    else expect(errs).toEqual(expected);
  });
});

describe('project paths and names', () => {
  it.each([
    ['proj', 0],
    ['proj.', 0],
    ['-proj', 1],
    ['proj.git', 1],
    ['a/b', 1],
  ] as const)('path %j has %d errors', (path, n) => expect(projectPathErrors(path)).toHaveLength(n));

  it.each([
    ['My Project', 0],
    ['_x+y.z', 0],
    ['Ünïcödé 1', 0],
    ['-bad', 1],
    ['bad/slash', 1],
    ['   ', 1],
  ] as const)('name %j has %d errors', (name, n) => expect(projectNameErrors(name)).toHaveLength(n));
});

describe('parameterize', () => {
  it.each([
    ['My Project', 'my-project'],
    ['  Héllo   Wörld!! ', 'hello-world'],
    ['a__b--c', 'a__b-c'],
  ])('%j → %j', (name, path) => expect(parameterize(name)).toBe(path));
});

describe('full paths', () => {
  it('splits at the last slash', () => {
    expect(splitFullPath('a/b/c')).toEqual({ namespace: 'a/b', path: 'c' });
    expect(splitFullPath('solo')).toEqual({ namespace: null, path: 'solo' });
  });

  it('tells ids from paths', () => {
    expect(isNumericRef('42')).toBe(true);
    expect(isNumericRef('42a')).toBe(false);
    expect(isNumericRef('a/42')).toBe(false);
  });
});
