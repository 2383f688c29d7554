import { startService, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { newPipeline, newRunner } from './helpers';

describe('POST /jobs/request', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(pipelinesService, { env: { RUNNER_LONG_POLL_MS: '3000' } });
  });
  afterAll(async () => {
    await svc?.stop();
  });
  const request = (body: Record<string, unknown>) => svc.as({}).post('/api/v4/jobs/request').send(body);

  it('returns 403 for an unknown runner token', async () => {
    await request({ token: 'glrt-nope' }).expect(403, { message: '403 Forbidden' });
  });

  it('answers 204 with X-GitLab-Last-Update when nothing is pending, and marks the runner contacted', async () => {
    const { id, token } = await newRunner(svc, { runner_type: 'instance_type', tag_list: 'nothing-has-this', run_untagged: false });
    const r = await request({ token }).expect(204);
    expect(r.headers['x-gitlab-last-update']).toMatch(/^[0-9a-f]{32}$/);
    const row = await svc.deps.db('runners').where({ id }).first();
    expect(row).toMatchObject({ creation_state: 'finished' });
    expect(row.contacted_at).not.toBeNull();
  });

  it('assigns the oldest pending job it may take: 201 with GitLab\'s job payload', async () => {
    const pipeline = await newPipeline(svc, 701, [
      ['build', 'build', 0, { beforeScript: ['echo before'], script: ['make'], afterScript: ['echo after'], image: { name: 'alpine:3' }, artifacts: { paths: ['out/'], expireIn: '1 week', when: 'on_success', reports: { junit: ['report.xml'] } }, variables: { YAML_VAR: 'y' } }],
      ['test', 'test', 1],
    ]);
    const { id: runnerId, token } = await newRunner(svc, { runner_type: 'instance_type', description: 'shell' });
    const r = await request({ token, info: { features: { cancel_gracefully: true } } }).expect(201);
    const job = await svc.deps.db('jobs').where({ pipeline_id: pipeline.id, name: 'build' }).first();
    expect(job).toMatchObject({ status: 'running', runner_id: runnerId, cancel_gracefully: true });
    const b = r.body;
    expect(Object.keys(b)).toEqual(['id', 'token', 'allow_git_fetch', 'job_info', 'git_info', 'runner_info', 'variables', 'steps', 'hooks', 'image', 'services', 'artifacts', 'cache', 'credentials', 'features', 'dependencies']);
    expect(b.id).toBe(job.id);
    expect(b.token).toMatch(/^glcbt-/);
    expect(job.token_digest).not.toContain(b.token);
    expect(b.job_info).toEqual({ id: job.id, name: 'build', stage: 'build', project_id: 701, project_name: 'proj-701', time_in_queue_seconds: expect.any(Number), project_jobs_running_on_instance_runners_count: '1' });
    expect(b.git_info).toMatchObject({ ref: 'main', sha: 'b'.repeat(40), ref_type: 'branch', depth: 20, refspecs: [`+refs/pipelines/${pipeline.id}:refs/pipelines/${pipeline.id}`, '+refs/heads/main:refs/remotes/origin/main'] });
    expect(b.git_info.repo_url).toBe(`http://gitlab-ci-token:${b.token}@127.0.0.1:8080/grp/proj-701.git`);
    expect(b.runner_info).toEqual({ timeout: 3600, runner_session_url: null });
    expect(b.steps).toEqual([
      { name: 'script', script: ['echo before', 'make'], timeout: 3600, when: 'on_success', allow_failure: false },
      { name: 'after_script', script: ['echo after'], timeout: 3600, when: 'always', allow_failure: true },
    ]);
    expect(b.image).toEqual({ name: 'alpine:3', entrypoint: null, ports: [] });
    expect(b.artifacts).toEqual([
      { paths: ['out/'], when: 'on_success', expire_in: '1 week', artifact_type: 'archive', artifact_format: 'zip' },
      { name: 'junit.xml.gz', paths: ['report.xml'], when: 'always', expire_in: '1 week', artifact_type: 'junit', artifact_format: 'gzip' },
    ]);
    const vars = Object.fromEntries(b.variables.map((v: { key: string }) => [v.key, v]));
    expect(vars.CI_JOB_TOKEN).toEqual({ key: 'CI_JOB_TOKEN', value: b.token, public: false, masked: true });
    expect(vars.CI_JOB_ID.value).toBe(String(job.id));
    expect(vars.CI_PIPELINE_ID.value).toBe(String(pipeline.id));
    expect(vars.YAML_VAR.value).toBe('y');
    expect(vars.PIPE_VAR).toMatchObject({ value: 'v', public: false });
    expect(b.features.trace_sections).toBe(true);
    expect(b.features.failure_reasons).toContain('script_failure');
    expect(b.dependencies).toEqual([]);
  });

  it('honours tags and run_untagged', async () => {
    const pipeline = await newPipeline(svc, 702, [['tagged', 'build', 0, { tags: ['docker'] }]]);
    const shell = await newRunner(svc, { runner_type: 'instance_type', tag_list: ['shell'] });
    const docker = await newRunner(svc, { runner_type: 'instance_type', tag_list: ['docker', 'linux'], run_untagged: false });
    await request({ token: shell.token }).expect(204);
    const r = await request({ token: docker.token }).expect(201);
    expect(r.body.job_info.name).toBe('tagged');
    expect((await svc.deps.db('jobs').where({ pipeline_id: pipeline.id }).first()).runner_id).toBe(docker.id);
  });

  it('answers a paused runner 204 without assigning', async () => {
    await newPipeline(svc, 703, [['waiting', 'build', 0]]);
    const { token } = await newRunner(svc, { runner_type: 'instance_type', paused: true });
    await request({ token }).expect(204);
  });

  it('holds a request whose last_update is current until a job becomes pending (long poll)', async () => {
    const { token } = await newRunner(svc, { runner_type: 'instance_type', tag_list: ['lp'], run_untagged: false });
    const first = await request({ token }).expect(204);
    const seen = first.headers['x-gitlab-last-update'];
    const started = Date.now();
    const held = request({ token, last_update: seen });
    setTimeout(() => void newPipeline(svc, 704, [['late', 'build', 0, { tags: ['lp'] }]]), 300);
    const r = await held.expect(201);
    expect(r.body.job_info.name).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('answers 204 after the long-poll bound when nothing comes', async () => {
    const { token } = await newRunner(svc, { runner_type: 'instance_type', tag_list: ['never'], run_untagged: false });
    const first = await request({ token }).expect(204);
    const started = Date.now();
    const r = await request({ token, last_update: first.headers['x-gitlab-last-update'] }).expect(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(r.headers['x-gitlab-last-update']).toBe(first.headers['x-gitlab-last-update']);
  });

  it('gives each pending job to one runner when many ask at once', async () => {
    const pipeline = await newPipeline(svc, 705, [['one', 'build', 0, { tags: ['race'] }], ['two', 'build', 0, { tags: ['race'] }]]);
    const runners = await Promise.all([1, 2, 3, 4].map(() => newRunner(svc, { runner_type: 'instance_type', tag_list: ['race'], run_untagged: false })));
    const answers = await Promise.all(runners.map((x) => request({ token: x.token })));
    const assigned = answers.filter((a) => a.status === 201).map((a) => a.body.id);
    expect(assigned.sort()).toEqual((await svc.deps.db('jobs').where({ pipeline_id: pipeline.id }).orderBy('id')).map((j) => j.id).sort());
    expect(answers.filter((a) => a.status === 204)).toHaveLength(2);
  });
});
