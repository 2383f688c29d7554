import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { Runner } from '../../services/pipelines/runner/src';
import { client } from './http';
import { userWithToken } from './support/fleet-api';

const TWO_STAGES = `
stages: [build, test]
build:
  stage: build
  script:
    - echo "building $CI_PROJECT_PATH at $CI_COMMIT_SHORT_SHA"
    - mkdir -p out && echo built > out/result.txt && cat out/result.txt
test:
  stage: test
  before_script:
    - echo "before the tests"
  script:
    - echo "testing in $CI_JOB_STAGE with a $([ -n "$CI_JOB_TOKEN" ] && echo job-token)"
  after_script:
    - echo "cleaning up"
`;

const FAILING_WITH_REPORT = `
unit:
  stage: test
  script:
    - mkdir -p reports
    - |
      cat > reports/junit.xml <<'XML'
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites>
        <testsuite name="calculator" tests="4">
          <testcase classname="calc.Add" name="adds" time="0.25"/>
          <testcase classname="calc.Sub" name="subtracts" time="0.5"><failure message="off by one">expected 1, got 2</failure></testcase>
          <testcase classname="calc.Div" name="divides by zero" time="0.1"><error message="boom"/></testcase>
          <testcase classname="calc.Mul" name="multiplies"><skipped/></testcase>
        </testsuite>
      </testsuites>
      XML
    - echo "tests failed" && exit 3
  artifacts:
    when: always
    reports:
      junit: reports/junit.xml
`;

/**
 * Issue 26's walk-through, through the gateway to identity and pipelines as separate processes: a
 * `.gitlab-ci.yml` committed with the Repository Files API, pipelines created with the API, and the
 * reference runner (created with `POST /user/runners`) taking one pipeline of two stages to success
 * and another to failed with a JUnit report whose counts appear in `test_report`.
 */
describe('pipelines with the reference runner', () => {
  let fleet: Fleet;
  let runner: Runner;
  let builds: string;
  let projectId: number;
  const api = () => client(fleet.url, fleet.adminToken);

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'pipelines'] });
    builds = mkdtempSync(path.join(tmpdir(), 'anvil-e2e-builds-'));
    const project = await api().post('/projects', { name: 'calculator', visibility: 'private' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    const created = await api().post('/user/runners', { runner_type: 'instance_type', description: 'e2e shell', tag_list: 'shell' });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^glrt-t1_/);
    runner = new Runner({ url: fleet.url, token: created.body.token, buildsDir: builds, shell: 'bash', traceIntervalMs: 200, shutdownGraceMs: 2000, name: 'e2e' }, () => undefined);
    expect(await runner.start()).toBe(created.body.id);
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await fleet?.stop();
    if (builds) rmSync(builds, { recursive: true, force: true });
  });

  async function commitCi(content: string, action: 'post' | 'put'): Promise<void> {
    const r = await api()[action](`/projects/${projectId}/repository/files/.gitlab-ci.yml`, { branch: 'main', content, commit_message: 'CI' });
    expect([200, 201]).toContain(r.status);
  }

  async function finished(pipelineId: number): Promise<any> {
    for (let i = 0; i < 200; i++) {
      const p = await api().get(`/projects/${projectId}/pipelines/${pipelineId}`);
      if (['success', 'failed', 'canceled'].includes(p.body.status)) return p.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`pipeline ${pipelineId} did not finish`);
  }

  it('takes a pipeline of two stages from pending to success, with the logs of each job', async () => {
    await commitCi(TWO_STAGES, 'post');
    const created = await api().post(`/projects/${projectId}/pipeline`, { ref: 'main' });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('pending');
    const done = await finished(created.body.id);
    expect(done.status).toBe('success');
    const jobs = await api().get(`/projects/${projectId}/pipelines/${created.body.id}/jobs`);
    expect(jobs.body.map((j: any) => [j.name, j.status]).sort()).toEqual([['build', 'success'], ['test', 'success']]);
    const build = jobs.body.find((j: any) => j.name === 'build');
    const test = jobs.body.find((j: any) => j.name === 'test');
    expect(new Date(test.started_at).getTime()).toBeGreaterThanOrEqual(new Date(build.finished_at).getTime());
    const buildLog = await fetch(`${fleet.url}/api/v4/projects/${projectId}/jobs/${build.id}/trace`, { headers: { 'PRIVATE-TOKEN': fleet.adminToken } });
    expect(buildLog.headers.get('content-type')).toBe('text/plain');
    const text = await buildLog.text();
    expect(text).toContain('$ echo "building $CI_PROJECT_PATH at $CI_COMMIT_SHORT_SHA"');
    expect(text).toMatch(/building root\/calculator at [0-9a-f]{8}/);
    expect(text).toContain('built\n');
    expect(text).toContain('Job succeeded');
    const testLog = await (await fetch(`${fleet.url}/api/v4/projects/${projectId}/jobs/${test.id}/trace`, { headers: { 'PRIVATE-TOKEN': fleet.adminToken } })).text();
    expect(testLog.indexOf('before the tests')).toBeLessThan(testLog.indexOf('testing in test with a job-token'));
    expect(testLog).toContain('cleaning up');
  });

  it('takes another pipeline to failed, with its JUnit report in test_report and test_report_summary', async () => {
    await commitCi(FAILING_WITH_REPORT, 'put');
    const created = await api().post(`/projects/${projectId}/pipeline`, { ref: 'main' });
    expect(created.status).toBe(201);
    const done = await finished(created.body.id);
    expect(done.status).toBe('failed');
    const [job] = (await api().get(`/projects/${projectId}/pipelines/${created.body.id}/jobs`)).body;
    expect(job).toMatchObject({ name: 'unit', status: 'failed', failure_reason: 'script_failure' });
    const report = await api().get(`/projects/${projectId}/pipelines/${created.body.id}/test_report`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ total_count: 4, success_count: 1, failed_count: 1, skipped_count: 1, error_count: 1 });
    expect(report.body.total_time).toBeCloseTo(0.85);
    expect(report.body.test_suites[0]).toMatchObject({ name: 'unit', total_count: 4, suite_error: null });
    expect(report.body.test_suites[0].test_cases[0]).toMatchObject({ status: 'failed', name: 'subtracts', classname: 'calc.Sub', system_output: 'expected 1, got 2' });
    const summary = await api().get(`/projects/${projectId}/pipelines/${created.body.id}/test_report_summary`);
    expect(summary.body.total).toMatchObject({ count: 4, success: 1, failed: 1, skipped: 1, error: 1, suite_error: null });
    expect(summary.body.test_suites[0]).toMatchObject({ name: 'unit', build_ids: [job.id] });
    const log = await (await fetch(`${fleet.url}/api/v4/projects/${projectId}/jobs/${job.id}/trace`, { headers: { 'PRIVATE-TOKEN': fleet.adminToken } })).text();
    expect(log).toContain('Uploading artifacts: reports/junit.xml (junit)');
    expect(log).toContain('exit code 3');
  });

  it('lets maintainers create project runners and group owners group runners, as GitLab', async () => {
    const dev = await userWithToken(fleet, 'runner-dev');
    const maintainer = await userWithToken(fleet, 'runner-maintainer');
    await api().post(`/projects/${projectId}/members`, { user_id: dev.id, access_level: 30 });
    await api().post(`/projects/${projectId}/members`, { user_id: maintainer.id, access_level: 40 });
    const denied = await client(fleet.url, dev.token).post('/user/runners', { runner_type: 'project_type', project_id: projectId });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden - Insufficient permissions' });
    const instance = await client(fleet.url, maintainer.token).post('/user/runners', { runner_type: 'instance_type' });
    expect(instance.status).toBe(403);
    const made = await client(fleet.url, maintainer.token).post('/user/runners', { runner_type: 'project_type', project_id: projectId });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^glrt-t3_/);
    const missing = await client(fleet.url, maintainer.token).post('/user/runners', { runner_type: 'project_type', project_id: 999999 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: '400 Bad request - Missing/invalid project' });
    const group = await api().post('/groups', { name: 'ci-group', path: 'ci-group' });
    const groupRunner = await api().post('/user/runners', { runner_type: 'group_type', group_id: group.body.id });
    expect(groupRunner.status).toBe(201);
    expect(groupRunner.body.token).toMatch(/^glrt-t2_/);
    expect((await client(fleet.url).post('/runners/verify', { token: made.body.token })).status).toBe(200);
    expect((await client(fleet.url).delete('/runners', { 'Runner-Token': made.body.token })).status).toBe(204);
    expect((await client(fleet.url).post('/runners/verify', { token: made.body.token })).status).toBe(403);
  });

  it('stops the runner process cleanly on SIGTERM: the poll ends, the running job is reported failed', async () => {
    const created = await api().post('/user/runners', { runner_type: 'instance_type', tag_list: 'slow', run_untagged: false });
    await commitCi('slow:\n  tags: [slow]\n  script:\n    - echo started\n    - sleep 30\n', 'put');
    const pipeline = await api().post(`/projects/${projectId}/pipeline`, { ref: 'main' });
    const env = { ...process.env, ANVIL_URL: fleet.url, RUNNER_TOKEN: created.body.token, RUNNER_BUILDS_DIR: builds, RUNNER_SHUTDOWN_GRACE_MS: '500', RUNNER_TRACE_INTERVAL_MS: '100' };
    const proc = spawn(process.execPath, ['--require', 'tsx/cjs', 'services/pipelines/runner/src/main.ts'], { cwd: path.resolve(__dirname, '../..'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (b) => (out += b));
    proc.stderr!.on('data', (b) => (out += b));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    for (let i = 0; i < 150 && !out.includes('received'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(out).toMatch(/job \d+ \(slow\) received/);
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('SIGTERM received: stopping');
    const done = await finished(pipeline.body.id);
    expect(done.status).toBe('failed');
    const [job] = (await api().get(`/projects/${projectId}/pipelines/${pipeline.body.id}/jobs`)).body;
    expect(job).toMatchObject({ status: 'failed', failure_reason: 'runner_system_failure' });
  });

  it('refuses what GitLab removed: registration tokens (410)', async () => {
    const r = await client(fleet.url).post('/runners', { token: 'GR1348941legacy' });
    expect(r.status).toBe(410);
    expect(r.body).toEqual({ message: '410 Gone - runner registration disallowed' });
  });
});
