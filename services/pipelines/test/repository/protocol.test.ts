import { commitTitle, commitTrailers } from '../../src/entities/commit';
import { searchPattern } from '../../src/repository/branches-finder';
import { committablePath, validFilePath } from '../../src/repository/file-paths';
import { FILE_MODE, TREE_MODE, treeId, TreeEntry } from '../../src/repository/git-objects';
import { conflictsWithHierarchy, isValidBranchName } from '../../src/repository/ref-names';
import { editTree, TreeIo } from '../../src/repository/tree-edit';

const BLOB = 'ce013625030ba8dba906f756967f9e9ca394464a';

function memoryTrees(): TreeIo & { trees: Map<string, TreeEntry[]> } {
  const trees = new Map<string, TreeEntry[]>();
  return {
    trees,
    read: async (sha) => trees.get(sha) ?? [],
    write: async (entries) => {
      const sha = treeId(entries);
      trees.set(sha, entries);
      return sha;
    },
  };
}

describe('editTree', () => {
  it('creates nested trees whose ids are the ids of the same trees built directly', async () => {
    const io = memoryTrees();
    const root = await editTree(io, null, ['a', 'b', 'c.txt'], { action: 'create', blobSha: BLOB });
    const c = treeId([{ mode: FILE_MODE, name: 'c.txt', sha: BLOB }]);
    const b = treeId([{ mode: TREE_MODE, name: 'b', sha: c }]);
    expect(root).toBe(treeId([{ mode: TREE_MODE, name: 'a', sha: b }]));
  });

  it.each([
    ['create over a file', [['x'], 'create'], ['x'], 'create', 'A file with this name already exists'],
    ['create over a directory', [['d', 'f']], ['d'], 'create', 'A directory with this name already exists'],
    ['create below a file', [['x']], ['x', 'y'], 'create', 'A file with this name already exists'],
    ['update a missing file', [['x']], ['y'], 'update', "A file with this name doesn't exist"],
    ['update a directory', [['d', 'f']], ['d'], 'update', "A file with this name doesn't exist"],
    ['delete below a missing directory', [['x']], ['n', 'y'], 'delete', "A file with this name doesn't exist"],
  ])('refuses to %s', async (_what, existing, target, action, message) => {
    const io = memoryTrees();
    let root: string | null = null;
    for (const p of existing as string[][]) if (Array.isArray(p)) root = await editTree(io, root, p, { action: 'create', blobSha: BLOB });
    const change = action === 'delete' ? { action: 'delete' as const } : { action: action as 'create' | 'update', blobSha: BLOB };
    await expect(editTree(io, root, target as string[], change)).rejects.toThrow(message as string);
  });

  it('drops directories a delete leaves empty, and answers null for an empty root', async () => {
    const io = memoryTrees();
    let root = await editTree(io, null, ['a', 'b', 'c'], { action: 'create', blobSha: BLOB });
    root = await editTree(io, root, ['top'], { action: 'create', blobSha: BLOB });
    const after = await editTree(io, root, ['a', 'b', 'c'], { action: 'delete' });
    expect(after).toBe(treeId([{ mode: FILE_MODE, name: 'top', sha: BLOB }]));
    expect(await editTree(io, after, ['top'], { action: 'delete' })).toBeNull();
  });
});

describe('branch names', () => {
  it.each(['main', 'feature/x', 'release-1.0', 'a.b', 'UPPER', 'ünï'])('accepts %s', (name) => expect(isValidBranchName(name)).toBe(true));
  it.each(['', 'HEAD', '-x', 'a..b', 'a b', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[', 'a\\b', 'x/', '/x', 'a//b', '.hidden', 'a/.b', 'x.lock', 'x.', 'a@{1}', '@', 'refs/heads/x'])(
    'refuses %j', (name) => expect(isValidBranchName(name)).toBe(false),
  );
  it('finds directory/file conflicts between branch names', () => {
    expect(conflictsWithHierarchy(['main', 'feature/a'], 'main/x')).toBe(true);
    expect(conflictsWithHierarchy(['main', 'feature/a'], 'feature')).toBe(true);
    expect(conflictsWithHierarchy(['main', 'feature/a'], 'feature/b')).toBe(false);
    expect(conflictsWithHierarchy(['main'], 'mainline')).toBe(false);
  });
});

describe('searchPattern', () => {
  it.each([
    ['feat', '%feat%', true],
    ['^feat', 'feat%', false],
    ['feat$', '%feat', false],
    ['f*t', '%f%t%', false],
    ['50%_x', '%50\\%\\_x%', true],
  ])('%s → %s', (search, pattern, plain) => expect(searchPattern(search)).toEqual({ pattern, plain }));
});

describe('file paths', () => {
  it.each(['a.txt', 'dir/a.txt', '.gitlab-ci.yml', '..a', 'a..b/c'])('accepts %s', (p) => expect(validFilePath(p)).toBe(p));
  it.each(['..', '.', '../a', 'a/..', 'a/../b', '/etc/passwd', 'a\nb', '..\\a'])('refuses %j', (p) => expect(() => validFilePath(p)).toThrow('file_path should be a valid file path'));
  it('lets the raw endpoint drop a leading slash', () => expect(validFilePath('/a.txt', true)).toBe('a.txt'));
  it.each(['a//b', 'a/./b', '.git/config', 'x/.GIT/y', 'a\0b', `${'d/'.repeat(2048)}f`])('does not commit %j', (p) => {
    expect(() => committablePath(p)).toThrow('invalid path: ');
  });
  it('commits a path of MAX_PATH_BYTES', () => expect(committablePath(`${'d/'.repeat(2047)}ff`)).toHaveLength(4096));
});

describe('commit title and trailers', () => {
  it('takes the first line, cuts long ones at a word with an ellipsis', () => {
    expect(commitTitle('Fix it\n\nBody')).toBe('Fix it');
    expect(commitTitle('')).toBe('No commit message');
    const long = `${'word '.repeat(30)}end`;
    expect(commitTitle(long)).toBe(`${'word '.repeat(16).trimEnd()}…`);
    expect(commitTitle('x'.repeat(120))).toBe(`${'x'.repeat(80)}…`);
    expect(commitTitle(`${'x'.repeat(80)} tail${'y'.repeat(30)}`)).toBe(`${'x'.repeat(80)}…`);
  });
  it('reads Key: value lines of the last paragraph', () => {
    expect(commitTrailers('Fix\n\nBody text\n\nSigned-off-by: A <a@x>\nChangelog: fixed\nSigned-off-by: B <b@x>\n')).toEqual({
      trailers: { 'Signed-off-by': 'B <b@x>', Changelog: 'fixed' },
      extended: { 'Signed-off-by': ['A <a@x>', 'B <b@x>'], Changelog: ['fixed'] },
    });
    expect(commitTrailers('Only: a title')).toEqual({ trailers: {}, extended: {} });
  });
});
