import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { repositoryReader } from '../../src/repository';
import { commitFile, FileCommitInput } from '../../src/repository/commit-service';
import { getCommit } from '../../src/repository/repository-store';
import { git, GIT_INSTALLED, identityEnv, objectIdOf } from './git-cli';

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

  it('resolves branches and reads files at commits whose ids are Git\'s (checked with git when installed)', async () => {
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

    const seconds = async (sha: string) => Math.floor(((await getCommit(db, 2, sha))?.committed_at as Date).getTime() / 1000);
    const entry = (mode: string, name: string, sha: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, 'hex')]);
    const ident = (at: number) => `A U Thor <a@example.com> ${at} +0000`;
    const ciBlob = objectIdOf('blob', 'test:\n  script: echo\n');
    const tree1 = objectIdOf('tree', entry('100644', '.gitlab-ci.yml', ciBlob));
    const at1 = await seconds(first.sha);
    expect(first.sha).toBe(objectIdOf('commit', `tree ${tree1}\nauthor ${ident(at1)}\ncommitter ${ident(at1)}\n\nAdd CI\n`));
    const templates = objectIdOf('tree', entry('100644', 'build.yml', objectIdOf('blob', 'build: {}\n')));
    const tree2 = objectIdOf('tree', Buffer.concat([entry('100644', '.gitlab-ci.yml', ciBlob), entry('40000', 'ci', objectIdOf('tree', entry('40000', 'templates', templates)))]));
    const at2 = await seconds(second.sha);
    expect(second.sha).toBe(objectIdOf('commit', `tree ${tree2}\nparent ${first.sha}\nauthor ${ident(at2)}\ncommitter ${ident(at2)}\n\nAdd template\n`));
    if (!GIT_INSTALLED) return;
    git(dir, {}, ['init', '-q']);
    writeFileSync(path.join(dir, '.gitlab-ci.yml'), 'test:\n  script: echo\n');
    git(dir, {}, ['add', '.']);
    expect(git(dir, identityEnv(WHO.name, WHO.email, at1), ['commit-tree', git(dir, {}, ['write-tree']), '-m', 'Add CI'])).toBe(first.sha);
    mkdirSync(path.join(dir, 'ci/templates'), { recursive: true });
    writeFileSync(path.join(dir, 'ci/templates/build.yml'), 'build: {}\n');
    git(dir, {}, ['add', '.']);
    expect(git(dir, {}, ['write-tree'])).toBe(tree2);
    expect(git(dir, identityEnv(WHO.name, WHO.email, at2), ['commit-tree', tree2, '-p', first.sha, '-m', 'Add template'])).toBe(second.sha);
  });
});
