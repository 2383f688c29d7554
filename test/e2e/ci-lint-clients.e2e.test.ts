import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/** CI Lint through the real gateway: python-gitlab's project.ci_lint, and the gateway's project resolution. */
describe('CI Lint through the gateway', () => {
  let fleet: Fleet;
  let maintainer: { id: number; token: string };
  let outsider: { id: number; token: string };
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'pipelines'] });
    maintainer = await userWithToken(fleet, 'lint-maintainer');
    outsider = await userWithToken(fleet, 'lint-outsider');
    const group = await call(fleet, fleet.adminToken, 'POST', '/groups', { name: 'Lint', path: 'lint', visibility: 'private' });
    const project = await call(fleet, fleet.adminToken, 'POST', '/projects', { name: 'App', path: 'app', namespace_id: group.id, visibility: 'private' });
    projectId = project.id;
    await call(fleet, fleet.adminToken, 'POST', `/projects/${projectId}/members`, { user_id: maintainer.id, access_level: 40 });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('python-gitlab: ci_lint.create (valid, invalid, include_jobs), validate, get (empty repository, default branch, sha, dry_run)', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'ci_lint_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, MAINTAINER_TOKEN: maintainer.token, PROJECT_ID: String(projectId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.valid).toEqual({
      valid: true, errors: [], jobs: [['build', 'build'], ['unit', 'test']],
      merged_yaml: '---\nstages:\n- .pre\n- build\n- test\n- .post\nbuild:\n  stage: build\n  script: make\nunit:\n  script: rspec\n',
    });
    expect(out.invalid).toEqual({ valid: false, errors: ['jobs:unit when should be one of: on_success, on_failure, always, manual, delayed'] });
    expect(out.validate).toBe('unit job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post');
    expect(out.get_empty).toEqual([404, '404 Repository Not Found']);
    expect(out.get).toEqual({
      valid: true, jobs: ['build', 'unit'], includes: ['ci/test.yml'],
      merged_yaml: '---\nunit:\n  script: rspec\nbuild:\n  stage: build\n  script: make\n',
    });
    expect(out.get_dry_run).toEqual({ valid: true, jobs: [['build', 'on_success'], ['unit', 'on_success']] });
    expect(out.get_sha_and_ref).toEqual([400, 'sha, ref are mutually exclusive']);
  }, 120_000);

  it('resolves the project by its path and hides a private project from an outsider (404)', async () => {
    const res = await fetch(`${fleet.url}/api/v4/projects/lint%2Fapp/ci/lint`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': maintainer.token, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'a:\n  script: x\n' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ valid: true });
    const hidden = await fetch(`${fleet.url}/api/v4/projects/${projectId}/ci/lint`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': outsider.token, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'a:\n  script: x\n' }),
    });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: '404 Project Not Found' });
  });
});
