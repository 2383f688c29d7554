import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The Repository Files and Branches APIs through the real gateway, over RabbitMQ: python-gitlab and
 * @gitbeaker/rest end to end, the project's default branch following the first commit in identity,
 * and the commit ids checked against git itself.
 */
describe('repository files and branches through the gateway', () => {
  let fleet: Fleet;
  let maintainer: { id: number; token: string };
  let reporter: { id: number; token: string };
  let groupId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'pipelines'] });
    maintainer = await userWithToken(fleet, 'repo-maintainer');
    reporter = await userWithToken(fleet, 'repo-reporter');
    const group = await call(fleet, fleet.adminToken, 'POST', '/groups', { name: 'Sources', path: 'sources', visibility: 'private' });
    groupId = group.id;
    await call(fleet, fleet.adminToken, 'POST', `/groups/${groupId}/members`, { user_id: maintainer.id, access_level: 40 });
    await call(fleet, fleet.adminToken, 'POST', `/groups/${groupId}/members`, { user_id: reporter.id, access_level: 20 });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const newProject = (name: string) => call(fleet, fleet.adminToken, 'POST', '/projects', { name, path: name, namespace_id: groupId, visibility: 'private' });

  it('python-gitlab: files create/get/update/raw/delete, branches create/list/get/delete', async () => {
    const project = await newProject('py-sources');
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'repository_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, TOKEN: maintainer.token, PROJECT_ID: String(project.id) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.created).toEqual({ file_path: 'ci/build.yml', branch: 'main' });
    expect(out.got).toMatchObject({ content: 'build:\n  script: make\n', size: 22, file_name: 'build.yml' });
    expect(out.got.last_commit_id).toBe(out.got.commit_id);
    expect(out.raw).toBe('build:\n  script: make all\n');
    expect(out.duplicate).toEqual([400, 'A file with this name already exists']);
    expect(out.branch).toMatchObject({ name: 'feature/py', default: false });
    expect(out.branches).toEqual(['feature/py', 'main']);
    expect(out.got_branch).toBe('feature/py');
    expect(out.after_branch_delete).toBe(404);
    expect(out.after_delete).toBe(404);
    const shown = await until(() => call(fleet, maintainer.token, 'GET', `/projects/${project.id}`), (p) => p.default_branch === 'main');
    expect(shown.default_branch).toBe('main');
  }, 120_000);

  it('@gitbeaker/rest: RepositoryFiles and Branches; the first branch becomes the default in identity', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: maintainer.token });
    const project = await newProject('gb-sources');
    expect(await api.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'trunk', 'test:\n  script: echo ok\n', 'Add CI')).toEqual({ file_path: '.gitlab-ci.yml', branch: 'trunk' });
    const shown = await api.RepositoryFiles.show(project.id, '.gitlab-ci.yml', 'trunk');
    expect(Buffer.from(shown.content, 'base64').toString()).toBe('test:\n  script: echo ok\n');
    await api.RepositoryFiles.edit(project.id, '.gitlab-ci.yml', 'trunk', 'test:\n  script: echo changed\n', 'Edit CI', { lastCommitId: shown.last_commit_id });
    expect(await api.RepositoryFiles.showRaw(project.id, '.gitlab-ci.yml', 'trunk')).toBe('test:\n  script: echo changed\n');
    await api.Branches.create(project.id, 'side', 'trunk');
    expect((await api.Branches.all(project.id, { search: 'sid' })).map((b) => b.name)).toEqual(['side']);
    expect((await api.Branches.show(project.id, 'trunk')).default).toBe(true);
    await api.Branches.remove(project.id, 'side');
    await api.RepositoryFiles.create(project.id, 'tmp.txt', 'trunk', 'x', 'Add tmp');
    await api.RepositoryFiles.remove(project.id, 'tmp.txt', 'trunk', 'Remove tmp');
    await expect(api.RepositoryFiles.show(project.id, 'tmp.txt', 'trunk')).rejects.toThrow();
    const p = await until(() => call(fleet, maintainer.token, 'GET', `/projects/${project.id}`), (x) => x.default_branch === 'trunk');
    expect(p.default_branch).toBe('trunk');
  }, 60_000);

  it('answers through the gateway as GitLab does: Reporter reads, cannot write; commit ids are Git\'s', async () => {
    const project = await newProject('checked');
    const body = { branch: 'main', content: 'hello\n', commit_message: 'init\n', author_name: 'A U Thor', author_email: 'a@example.com' };
    const res = await fetch(`${fleet.url}/api/v4/projects/sources%2Fchecked/repository/files/README.md`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': maintainer.token, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const file = await call(fleet, reporter.token, 'GET', `/projects/${project.id}/repository/files/README.md?ref=main`);
    expect(file.blob_id).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    const denied = await fetch(`${fleet.url}/api/v4/projects/${project.id}/repository/files/x.txt`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': reporter.token, 'content-type': 'application/json' }, body: JSON.stringify({ branch: 'main', content: 'x', commit_message: 'm' }),
    });
    expect([denied.status, await denied.json()]).toEqual([403, { message: '403 Forbidden' }]);
    const branch = await call(fleet, reporter.token, 'GET', `/projects/${project.id}/repository/branches/main`);
    const at = Math.floor(Date.parse(branch.commit.committed_date) / 1000);
    const tree = '853694aae8816094a0d875fee7ea26278dbf5d0f';
    const committer = `${branch.commit.committer_name} <${branch.commit.committer_email}> ${at} +0000`;
    const commitBody = `tree ${tree}\nauthor A U Thor <a@example.com> ${at} +0000\ncommitter ${committer}\n\ninit\n`;
    expect(branch.commit.id).toBe(createHash('sha1').update(`commit ${Buffer.byteLength(commitBody)}\0${commitBody}`).digest('hex'));
    if (spawnSync('git', ['--version']).status === 0) {
      const dir = mkdtempSync(path.join(tmpdir(), 'anvil-e2e-git-'));
      try {
        const when = `${at} +0000`;
        const env = { ...process.env, HOME: dir, GIT_AUTHOR_NAME: 'A U Thor', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_AUTHOR_DATE: when, GIT_COMMITTER_NAME: branch.commit.committer_name, GIT_COMMITTER_EMAIL: branch.commit.committer_email, GIT_COMMITTER_DATE: when };
        const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: dir, env, input }).toString().trim();
        git(['init', '-q']);
        expect(git(['mktree'], `100644 blob ${git(['hash-object', '-w', '--stdin'], 'hello\n')}\tREADME.md\n`)).toBe(tree);
        expect(git(['commit-tree', tree, '-m', 'init'])).toBe(branch.commit.id);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const anon = await fetch(`${fleet.url}/api/v4/projects/${project.id}/repository/branches`);
    expect([anon.status, await anon.json()]).toEqual([404, { message: '404 Project Not Found' }]);
  }, 60_000);
});
