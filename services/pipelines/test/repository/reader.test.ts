import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { repositoryReader } from '../../src/repository';
import { commitFile, FileCommitInput } from '../../src/repository/commit-service';
import { getCommit } from '../../src/repository/repository-store';

const WHO = { name: 'A U Thor', email: 'a@example.com' };

function input(projectId: number, over: Partial<FileCommitInput>): FileCommitInput {
  return { projectId, actorId: 1, branch: 'main', path: 'x', content: Buffer.from(''), action: 'create', message: 'm', author: WHO, committer: WHO, canPushProtected: true, ...over };
}

describe('repositoryReader', () => {
  let svc: TestService;
  let dir: string;
  beforeAll(async () => {
    svc = await startService(pipelinesService);
    dir = mkdtempSync(path.join(tmpdir(), 'anvil-git-'));
  });
  afterAll(async () => {
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers null for a project without commits', async () => {
    expect(await repositoryReader.defaultBranch(svc.deps.db, 1)).toBeNull();
    expect(await repositoryReader.resolveRef(svc.deps.db, 1, 'main')).toBeNull();
  });

  it('resolves branches and reads files at commits that git computes the same', async () => {
    const db = svc.deps.db;
    const first = await commitFile(db, input(2, { path: '.gitlab-ci.yml', content: Buffer.from('test:\n  script: echo\n'), message: 'Add CI\n' }));
    const second = await commitFile(db, input(2, { path: 'ci/templates/build.yml', content: Buffer.from('build: {}\n'), message: 'Add template\n' }));
    expect(await repositoryReader.defaultBranch(db, 2)).toBe('main');
    expect(await repositoryReader.resolveRef(db, 2, 'main')).toEqual({ ref: 'main', sha: second.sha, beforeSha: first.sha });
    expect(await repositoryReader.readFile(db, 2, first.sha, '.gitlab-ci.yml')).toBe('test:\n  script: echo\n');
    expect(await repositoryReader.readFile(db, 2, first.sha, 'ci/templates/build.yml')).toBeNull();
    expect(await repositoryReader.readFile(db, 2, second.sha, 'ci/templates/build.yml')).toBe('build: {}\n');
    expect(await repositoryReader.readFile(db, 2, second.sha, 'ci/templates')).toBeNull();
    expect(await repositoryReader.readFile(db, 3, second.sha, '.gitlab-ci.yml')).toBeNull();

    const git = async (sha: string, ...args: string[]) => {
      const at = `${Math.floor(((await getCommit(db, 2, sha))?.committed_at as Date).getTime() / 1000)} +0000`;
      const env = { ...process.env, HOME: dir, GIT_AUTHOR_NAME: WHO.name, GIT_AUTHOR_EMAIL: WHO.email, GIT_COMMITTER_NAME: WHO.name, GIT_COMMITTER_EMAIL: WHO.email, GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at };
      return execFileSync('git', args, { cwd: dir, env }).toString().trim();
    };
    await git(first.sha, 'init', '-q');
    writeFileSync(path.join(dir, '.gitlab-ci.yml'), 'test:\n  script: echo\n');
    await git(first.sha, 'add', '.');
    expect(await git(first.sha, 'commit-tree', await git(first.sha, 'write-tree'), '-m', 'Add CI')).toBe(first.sha);
    mkdirSync(path.join(dir, 'ci/templates'), { recursive: true });
    writeFileSync(path.join(dir, 'ci/templates/build.yml'), 'build: {}\n');
    await git(second.sha, 'add', '.');
    const tree = await git(second.sha, 'write-tree');
    expect((await getCommit(db, 2, second.sha))?.tree_sha).toBe(tree);
    expect(await git(second.sha, 'commit-tree', tree, '-p', first.sha, '-m', 'Add template')).toBe(second.sha);
  });
});
