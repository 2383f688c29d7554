import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blobId, commitId, FILE_MODE, sortEntries, TREE_MODE, treeId } from '../../src/repository/git-objects';

const AUTHOR = { name: 'A U Thor', email: 'a@example.com', date: new Date(1_700_000_000_000) };

function git(cwd: string, args: string[], input?: string | Buffer): string {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'A U Thor', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_NAME: 'A U Thor', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_COMMITTER_DATE: '1700000000 +0000', HOME: cwd };
  return execFileSync('git', args, { cwd, env, input }).toString().trim();
}

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

  describe('against git itself', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'anvil-git-'));
      git(dir, ['init', '-q']);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('matches git for binary blobs, nested trees and commits with a parent', () => {
      const bin = Buffer.from([0, 1, 2, 255, 10, 13]);
      expect(blobId(bin)).toBe(git(dir, ['hash-object', '-w', '--stdin'], bin));
      const ci = Buffer.from('stages: [test]\n');
      const ciSha = git(dir, ['hash-object', '-w', '--stdin'], ci);
      expect(blobId(ci)).toBe(ciSha);
      const binSha = blobId(bin);
      const sub = [{ mode: FILE_MODE, name: 'x.bin', sha: binSha }, { mode: '100755', name: 'run.sh', sha: ciSha }];
      const subSha = git(dir, ['mktree'], `100644 blob ${binSha}\tx.bin\n100755 blob ${ciSha}\trun.sh\n`);
      expect(treeId(sub)).toBe(subSha);
      const root = [{ mode: FILE_MODE, name: 'a.txt', sha: ciSha }, { mode: TREE_MODE, name: 'a', sha: subSha }, { mode: FILE_MODE, name: '.gitlab-ci.yml', sha: ciSha }];
      const rootSha = git(dir, ['mktree'], `100644 blob ${ciSha}\t.gitlab-ci.yml\n040000 tree ${subSha}\ta\n100644 blob ${ciSha}\ta.txt\n`);
      expect(treeId(root)).toBe(rootSha);
      const first = git(dir, ['commit-tree', rootSha, '-m', 'first']);
      expect(commitId({ tree: rootSha, parents: [], author: AUTHOR, committer: AUTHOR, message: 'first\n' })).toBe(first);
      const second = git(dir, ['commit-tree', rootSha, '-p', first, '-F', '-'], 'Add file\n\nWith a body\n');
      expect(commitId({ tree: rootSha, parents: [first], author: AUTHOR, committer: AUTHOR, message: 'Add file\n\nWith a body\n' })).toBe(second);
    });
  });
});
