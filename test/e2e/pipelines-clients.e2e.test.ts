import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

const CI = 'stages: [build, test]\nbuild:\n  stage: build\n  script: [make]\nunit:\n  stage: test\n  script: [make test]\n  allow_failure: true\n';

/**
 * Pipelines through the real gateway and separate service processes: python-gitlab and
 * @gitbeaker/rest store `.gitlab-ci.yml` with the files API, create pipelines with variables,
 * list jobs by stage, cancel, retry, rename and delete.
 */
describe('Pipelines through the gateway', () => {
  let fleet: Fleet;
  let developer: { id: number; token: string };
  let owner: { id: number; token: string };
  let reporter: { id: number; token: string };
  let groupId: number;

  const project = async (path: string) => {
    const p = await call(fleet, fleet.adminToken, 'POST', '/projects', { name: path, path, namespace_id: groupId, visibility: 'private' });
    for (const [u, level] of [[developer, 30], [owner, 50], [reporter, 20]] as const) {
      await call(fleet, fleet.adminToken, 'POST', `/projects/${p.id}/members`, { user_id: u.id, access_level: level });
    }
    return p.id as number;
  };

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'pipelines'] });
    developer = await userWithToken(fleet, 'pipe-dev');
    owner = await userWithToken(fleet, 'pipe-owner');
    reporter = await userWithToken(fleet, 'pipe-reporter');
    groupId = (await call(fleet, fleet.adminToken, 'POST', '/groups', { name: 'CI', path: 'ci-grp', visibility: 'private' })).id;
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('python-gitlab: files, create with variables, jobs by stage, cancel, retry, metadata, list, delete', async () => {
    const projectId = await project('py-app');
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'pipelines_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, DEVELOPER_TOKEN: developer.token, OWNER_TOKEN: owner.token, PROJECT_ID: String(projectId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.before_ci).toEqual([400, { base: ['Reference not found'] }]);
    expect(out.created).toEqual({ status: 'pending', ref: 'main', iid: 1, source: 'api' });
    expect(out.jobs_by_stage).toEqual({ build: [['build', 'pending']], test: [['unit', 'created']], deploy: [['deploy', 'created']] });
    expect(out.variables).toEqual([['DEPLOY_TO', 'staging', 'env_var']]);
    expect(out.job_canceled).toBe('canceled');
    expect(out.after_job_retry).toEqual([['build', 'pending'], ['deploy', 'created'], ['unit', 'created']]);
    expect(out.canceled).toBe('canceled');
    expect(out.retried).toBe('pending');
    expect(out.renamed).toBe('Staging deploy');
    expect(out.list_all).toEqual([false, true]);
    expect(out.list_filtered).toEqual([true]);
    expect(out.deleted).toEqual([404, '404 Not found']);
  }, 120_000);

  it('@gitbeaker/rest: files, create, jobs, cancel, retry, rename, delete; reporters read but cannot act', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: developer.token });
    const ownerApi = new Gitlab({ host: fleet.url, token: owner.token });
    const readOnly = new Gitlab({ host: fleet.url, token: reporter.token });
    const projectId = await project('gb-app');
    await ownerApi.RepositoryFiles.create(projectId, '.gitlab-ci.yml', 'main', CI, 'Add CI');
    const created = await api.Pipelines.create(projectId, 'main', { variables: [{ key: 'FROM', value: 'gitbeaker' }] });
    expect(created).toMatchObject({ ref: 'main', status: 'pending', source: 'api' });
    const jobs = await api.Jobs.all(projectId, { pipelineId: created.id });
    expect(jobs.map((j) => [j.stage, j.name, j.status]).sort()).toEqual([['build', 'build', 'pending'], ['test', 'unit', 'created']]);
    expect(await api.Pipelines.allVariables(projectId, created.id)).toEqual([{ key: 'FROM', value: 'gitbeaker', variable_type: 'env_var' }]);
    expect((await readOnly.Pipelines.show(projectId, created.id)).id).toBe(created.id);
    await expect(readOnly.Pipelines.cancel(projectId, created.id)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    expect((await api.Pipelines.cancel(projectId, created.id)).status).toBe('canceled');
    expect((await api.Pipelines.retry(projectId, created.id)).status).toBe('pending');
    const build = (await api.Jobs.all(projectId, { pipelineId: created.id })).find((j) => j.name === 'build')!;
    const canceled = await api.Jobs.cancel(projectId, build.id);
    expect(canceled.status).toBe('canceled');
    const retried = await api.Jobs.retry(projectId, build.id);
    expect(retried).toMatchObject({ name: 'build', status: 'pending' });
    expect(retried.id).not.toBe(build.id);
    const all = await api.Jobs.all(projectId, { pipelineId: created.id, includeRetried: true });
    expect(all.filter((j) => j.name === 'build')).toHaveLength(3);
    const renamed = await fetch(`${fleet.url}/api/v4/projects/${projectId}/pipelines/${created.id}/metadata`, {
      method: 'PUT', headers: { 'PRIVATE-TOKEN': developer.token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Nightly' }),
    });
    expect(renamed.status).toBe(200);
    expect((await api.Pipelines.all(projectId, { name: 'Nightly' } as never)).map((p) => p.id)).toEqual([created.id]);
    await expect(api.Pipelines.remove(projectId, created.id)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    await ownerApi.Pipelines.remove(projectId, created.id);
    expect(await api.Pipelines.all(projectId)).toEqual([]);
  }, 120_000);
});
