import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blobId, commitId, FILE_MODE, sortEntries, TREE_MODE, treeId } from '../../src/repository/git-objects';
import { git, GIT_INSTALLED, identityEnv } from './git-cli';

const AUTHOR = { name: 'A U Thor', email: 'a@example.com', date: new Date(1_700_000_000_000) };

describe('Git object ids', () => {
  describe('known vectors', () => {
    it.each([
      ['', 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'],
      ['hello\n', 'ce013625030ba8dba906f756967f9e9ca394464a'],
    ])('blob %j is %s', (content, id) => {
      expect(blobId(Buffer.from(content))).toBe(id);
    });

    it('computes the empty tree, a one-entry tree and a root commit', () => {
      expect(treeId([])).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
      const tree = treeId([{ mode: FILE_MODE, name: 'README.md', sha: 'ce013625030ba8dba906f756967f9e9ca394464a' }]);
      expect(tree).toBe('853694aae8816094a0d875fee7ea26278dbf5d0f');
      expect(commitId({ tree, parents: [], author: AUTHOR, committer: AUTHOR, message: 'init\n' })).toBe('bd4d2bbdade1bd848ddae0bcb6065424e5b95548');
    });

    it("orders a file 'a.txt' before a directory 'a' and a file 'a' before 'a.txt'", () => {
      const sha = '0'.repeat(40);
      expect(sortEntries([{ mode: TREE_MODE, name: 'a', sha }, { mode: FILE_MODE, name: 'a.txt', sha }]).map((e) => e.name)).toEqual(['a.txt', 'a']);
      expect(sortEntries([{ mode: FILE_MODE, name: 'a.txt', sha }, { mode: FILE_MODE, name: 'a', sha }]).map((e) => e.name)).toEqual(['a', 'a.txt']);
    });
  });

  describe('against vectors computed with git (and git itself when installed)', () => {
    const V = {
      bin: '00d3886755aea6518af644014b13effd02d6887c', ci: 'f046197e661d9927535f093c55b1aa351329fa77', sub: '574d0d149d4325d49e479f43338a41daf7a9f687',
      root: '443690227b70ee8e0d8a4218041abe6ed7e1ed61', first: '8a1903670f890ee16955c1a7f430cbe389dd8358', second: '13516a0999c7e2b62b086fc1953a88f4121812d6',
    };
    const bin = Buffer.from([0, 1, 2, 255, 10, 13]);
    const ci = Buffer.from('stages: [test]\n');
    const sub = [{ mode: FILE_MODE, name: 'x.bin', sha: V.bin }, { mode: '100755', name: 'run.sh', sha: V.ci }];
    const root = [{ mode: FILE_MODE, name: 'a.txt', sha: V.ci }, { mode: TREE_MODE, name: 'a', sha: V.sub }, { mode: FILE_MODE, name: '.gitlab-ci.yml', sha: V.ci }];

    it('computes binary blobs, nested trees in Git order and commits with a parent, as the git binary does when installed', () => {
      expect([blobId(bin), blobId(ci), treeId(sub), treeId(root)]).toEqual([V.bin, V.ci, V.sub, V.root]);
      expect(commitId({ tree: V.root, parents: [], author: AUTHOR, committer: AUTHOR, message: 'first\n' })).toBe(V.first);
      expect(commitId({ tree: V.root, parents: [V.first], author: AUTHOR, committer: AUTHOR, message: 'Add file\n\nWith a body\n' })).toBe(V.second);
      if (GIT_INSTALLED) expectGitAgrees();
    });

    function expectGitAgrees(): void {
      const dir = mkdtempSync(path.join(tmpdir(), 'anvil-git-'));
      try {
        const env = identityEnv('A U Thor', 'a@example.com', 1_700_000_000);
        git(dir, env, ['init', '-q']);
        expect(git(dir, env, ['hash-object', '-w', '--stdin'], bin)).toBe(V.bin);
        expect(git(dir, env, ['hash-object', '-w', '--stdin'], ci)).toBe(V.ci);
        expect(git(dir, env, ['mktree'], `100644 blob ${V.bin}\tx.bin\n100755 blob ${V.ci}\trun.sh\n`)).toBe(V.sub);
        expect(git(dir, env, ['mktree'], `100644 blob ${V.ci}\t.gitlab-ci.yml\n040000 tree ${V.sub}\ta\n100644 blob ${V.ci}\ta.txt\n`)).toBe(V.root);
        expect(git(dir, env, ['commit-tree', V.root, '-m', 'first'])).toBe(V.first);
        expect(git(dir, env, ['commit-tree', V.root, '-p', V.first, '-F', '-'], 'Add file\n\nWith a body\n')).toBe(V.second);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
