import { applyFileActions, FileActionInput, validAction } from '../../src/snippets/snippet-files';

const files = [{ path: 'a', content: 'A' }, { path: 'b', content: 'B' }];

describe('validAction', () => {
  it.each<[FileActionInput, boolean]>([
    [{ action: 'create', content: 'x' }, true],
    [{ action: 'create', filePath: 'x' }, false],
    [{ action: 'update', filePath: 'a', content: 'x' }, true],
    [{ action: 'update', filePath: 'a', previousPath: 'a', content: 'x' }, true],
    [{ action: 'update', filePath: 'a', previousPath: 'b', content: 'x' }, false],
    [{ action: 'update', content: 'x' }, false],
    [{ action: 'delete', filePath: 'a' }, true],
    [{ action: 'delete' }, false],
    [{ action: 'move', filePath: 'c', previousPath: 'a' }, true],
    [{ action: 'move', filePath: 'a', previousPath: 'a' }, false],
    [{ action: 'move', filePath: 'c' }, false],
  ])('%j → %s', (action, valid) => {
    expect(validAction(action)).toBe(valid);
  });
});

describe('applyFileActions', () => {
  it.each<[string, FileActionInput[], { path: string; content: string }[] | null]>([
    ['create appends', [{ action: 'create', filePath: 'c', content: 'C' }], [...files, { path: 'c', content: 'C' }]],
    ['create names a pathless file', [{ action: 'create', content: 'C' }, { action: 'create', content: 'D' }], [...files, { path: 'snippetfile1.txt', content: 'C' }, { path: 'snippetfile2.txt', content: 'D' }]],
    ['create of an existing path fails', [{ action: 'create', filePath: 'a', content: 'C' }], null],
    ['update replaces content in place', [{ action: 'update', filePath: 'b', content: 'B2' }], [files[0], { path: 'b', content: 'B2' }]],
    ['update of a missing file fails', [{ action: 'update', filePath: 'z', content: 'Z' }], null],
    ['move renames in place, keeping content', [{ action: 'move', previousPath: 'a', filePath: 'd/a' }], [{ path: 'd/a', content: 'A' }, files[1]]],
    ['move with content changes it too', [{ action: 'move', previousPath: 'a', filePath: 'c', content: 'A2' }], [{ path: 'c', content: 'A2' }, files[1]]],
    ['move onto an existing file fails', [{ action: 'move', previousPath: 'a', filePath: 'b' }], null],
    ['delete removes', [{ action: 'delete', filePath: 'a' }], [files[1]]],
    ['deleting every file fails', [{ action: 'delete', filePath: 'a' }, { action: 'delete', filePath: 'b' }], null],
    ['more than ten files fails', Array.from({ length: 9 }, (_, i) => ({ action: 'create' as const, filePath: `f${i}`, content: 'x' })), null],
    ['ten files are fine', Array.from({ length: 8 }, (_, i) => ({ action: 'create' as const, filePath: `f${i}`, content: 'x' })), [...files, ...Array.from({ length: 8 }, (_, i) => ({ path: `f${i}`, content: 'x' }))]],
  ])('%s', (_, actions, expected) => {
    expect(applyFileActions(files, actions)).toEqual(expected);
  });
});
