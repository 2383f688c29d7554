import type { TestService } from '@anvil/testing';
import { pickPendingJob, transitionJob } from '../../src/jobs';
import { runnerStore } from '../../src/runners/runner-store';
import { PipelinesWorld, startPipelines } from '../support/pipelines';

describe('jobs routes', () => {
  let svc: TestService;
  let world: PipelinesWorld;
  let project: ReturnType<PipelinesWorld['project']>;
  const jobsUrl = () => `/api/v4/projects/${project.id}/jobs`;

  beforeAll(async () => {
    ({ svc, world } = await startPipelines());
    project = world.project();
    await world.commit(project);
  });
  afterAll(() => svc?.stop());

  describe('GET /projects/:id/pipelines/:pipeline_id/jobs', () => {
    it('lists the current jobs newest first as Ci::Job, by scope, with retried ones on request', async () => {
      const p = await world.pipeline(project);
      const build = (await world.jobs(p.id)).build;
      await transitionJob(svc.deps.db, build.id, 'drop');
      await world.as(world.users.developer, project).post(`${jobsUrl()}/${build.id}/retry`).expect(201);
      const url = `/api/v4/projects/${project.id}/pipelines/${p.id}/jobs`;
      const res = await world.as(world.users.reporter, project).get(url).expect(200);
      expect(res.body.map((j: { name: string }) => j.name)).toEqual(['build', 'deploy', 'lint', 'unit']);
      const job = res.body[0];
      expect(Object.keys(job)).toEqual(['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'allow_failure', 'created_at', 'started_at', 'finished_at', 'erased_at',
        'duration', 'queued_duration', 'user', 'commit', 'pipeline', 'web_url', 'project', 'artifacts', 'runner', 'runner_manager', 'artifacts_expire_at', 'archived', 'tag_list']);
      expect(job).toMatchObject({ status: 'pending', stage: 'build', ref: 'main', tag: false, allow_failure: false, runner: null, tag_list: [],
        pipeline: { id: p.id, iid: p.iid, status: 'pending', ref: 'main', sha: p.sha }, commit: { id: p.sha, short_id: p.sha.slice(0, 8), title: 'Add .gitlab-ci.yml', author_name: 'A U Thor' },
        web_url: `http://127.0.0.1:8080/${project.path_with_namespace}/-/jobs/${job.id}`, user: { username: 'developer' } });
      const withRetried = await world.as(world.users.reporter, project).get(`${url}?include_retried=true&scope[]=failed`).expect(200);
      expect(withRetried.body.map((j: { id: number; failure_reason: string }) => [j.id, j.failure_reason])).toEqual([[build.id, 'unknown_failure']]);
      const byScope = await world.as(world.users.reporter, project).get(`${url}?scope[]=created&scope[]=pending`).expect(200);
      expect(byScope.body).toHaveLength(4);
      await world.as(world.users.reporter, project).get(`${url}?scope=bogus`).expect(400, { error: 'scope does not have a valid value' });
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/999999/jobs`).expect(404, { message: '404 Not found' });
      expect((await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/${p.id}/bridges`).expect(200)).body).toEqual([]);
      await world.as(world.users.guest, project).get(url).expect(403);
    });
  });

  describe('GET /projects/:id/jobs and /jobs/:job_id', () => {
    it('lists every job of the project, retried ones included, without totals', async () => {
      const res = await world.as(world.users.reporter, project).get(`${jobsUrl()}?per_page=2`).expect(200);
      expect(res.body).toHaveLength(2);
      expect(res.headers['x-total']).toBeUndefined();
      expect(res.headers['x-next-page']).toBe('2');
      const all = await world.as(world.users.reporter, project).get(`${jobsUrl()}?per_page=100`).expect(200);
      expect(all.body.map((j: { id: number }) => j.id)).toEqual([...all.body.map((j: { id: number }) => j.id)].sort((a, b) => b - a));
      expect(all.body.some((j: { status: string }) => j.status === 'failed')).toBe(true);
      const one = await world.as(world.users.reporter, project).get(`${jobsUrl()}/${all.body[0].id}`).expect(200);
      expect(one.body.id).toBe(all.body[0].id);
    });

    it('shows the runner that took the job and its stored artifacts', async () => {
      const own = world.project();
      await world.commit(own);
      const p = await world.pipeline(own);
      const runner = await runnerStore.insert(svc.deps.db, { runnerType: 'instance_type', description: 'shared one', creatorId: world.users.admin.id }, 'glrt-test-token-1');
      const picked = await pickPendingJob(svc.deps.db, { runnerId: runner.id, tags: [], runUntagged: true, projectIds: [own.id] }, 'digest-of-job-token');
      expect(picked!.pipeline_id).toBe(p.id);
      await svc.deps.db('job_artifacts').insert({ job_id: picked!.id, project_id: own.id, pipeline_id: p.id, file_type: 'archive', file_format: 'zip',
        filename: 'artifacts.zip', size: 1234, sha256: 'a'.repeat(64), storage_key: 'k', expire_at: new Date('2030-01-01T00:00:00Z') });
      const res = await world.as(world.users.reporter, own).get(`/api/v4/projects/${own.id}/jobs/${picked!.id}`).expect(200);
      expect(res.body).toMatchObject({ status: 'running', artifacts_file: { filename: 'artifacts.zip', size: 1234 },
        artifacts: [{ file_type: 'archive', size: 1234, filename: 'artifacts.zip', file_format: 'zip' }], artifacts_expire_at: '2030-01-01T00:00:00.000Z',
        runner: { id: runner.id, description: 'shared one', ip_address: null, active: true, paused: false, is_shared: true, runner_type: 'instance_type', online: false, status: 'never_contacted' } });
      expect(res.body.started_at).not.toBeNull();
      expect(res.body.duration).toBeGreaterThanOrEqual(0);
    });

    it('is 401 anonymous, 403 for a guest, 404 for an unknown job', async () => {
      await world.as(null, { ...project, visibility: 'public' }).get(jobsUrl()).expect(401);
      await world.as(world.users.guest, project).get(jobsUrl()).expect(403);
      await world.as(world.users.reporter, project).get(`${jobsUrl()}/999999`).expect(404, { message: '404 Not found' });
    });
  });

  describe('POST /projects/:id/jobs/:job_id/cancel, /retry, /play', () => {
    it('cancels a pending job (201) and returns a finished one unchanged', async () => {
      const p = await world.pipeline(project);
      const build = (await world.jobs(p.id)).build;
      const res = await world.as(world.users.developer, project).post(`${jobsUrl()}/${build.id}/cancel`).expect(201);
      expect(res.body).toMatchObject({ id: build.id, status: 'canceled' });
      expect((await world.as(world.users.developer, project).post(`${jobsUrl()}/${build.id}/cancel`).expect(201)).body.status).toBe('canceled');
      await world.as(world.users.reporter, project).post(`${jobsUrl()}/${build.id}/cancel`).expect(403);
    });

    it('force-cancels a job left canceling by a graceful runner, for maintainers only', async () => {
      const own = world.project();
      await world.commit(own);
      const p = await world.pipeline(own);
      const picked = await pickPendingJob(svc.deps.db, { runnerId: 4242, tags: [], runUntagged: true, projectIds: [own.id], cancelGracefully: true }, 'digest-graceful');
      expect(picked!.pipeline_id).toBe(p.id);
      const url = `/api/v4/projects/${own.id}/jobs/${picked!.id}/cancel`;
      expect((await world.as(world.users.developer, own).post(url).expect(201)).body.status).toBe('canceling');
      expect((await svc.deps.db('pipelines').where({ id: p.id }).first()).status).toBe('running');
      await world.as(world.users.developer, own).post(`${url}?force=true`).expect(403, { message: '403 Forbidden' });
      expect((await world.as(world.users.maintainer, own).post(`${url}?force=true`).expect(201)).body.status).toBe('canceled');
      expect((await world.jobs(p.id)).unit.status).toBe('skipped');
    });

    it('retries a finished job as a new job (201) and refuses others with 403 Job is not retryable', async () => {
      const p = await world.pipeline(project);
      const { build, unit } = await world.jobs(p.id);
      await world.as(world.users.developer, project).post(`${jobsUrl()}/${unit.id}/retry`).expect(403, { message: '403 Forbidden - Job is not retryable' });
      await transitionJob(svc.deps.db, build.id, 'run');
      await transitionJob(svc.deps.db, build.id, 'succeed');
      const res = await world.as(world.users.developer, project).post(`${jobsUrl()}/${build.id}/retry`).expect(201);
      expect(res.body).toMatchObject({ name: 'build', status: 'pending' });
      expect(res.body.id).not.toBe(build.id);
      await world.as(world.users.developer, project).post(`${jobsUrl()}/${build.id}/retry`).expect(403, { message: '403 Forbidden - Job is not retryable' });
    });

    it('plays a manual job with variables (200) and refuses an unplayable one with 400', async () => {
      const p = await world.pipeline(project);
      const jobs = await world.jobs(p.id);
      for (const name of ['build', 'unit', 'lint']) {
        await transitionJob(svc.deps.db, jobs[name].id, 'run');
        await transitionJob(svc.deps.db, jobs[name].id, 'succeed');
      }
      expect((await world.jobs(p.id)).deploy.status).toBe('manual');
      await world.as(world.users.developer, project).post(`${jobsUrl()}/${jobs.build.id}/play`).expect(400, { message: '400 Bad request - Unplayable Job' });
      await world.as(world.users.reporter, project).post(`${jobsUrl()}/${jobs.deploy.id}/play`).expect(403);
      const res = await world.as(world.users.maintainer, project).post(`${jobsUrl()}/${jobs.deploy.id}/play`)
        .send({ job_variables_attributes: [{ key: 'TARGET', value: 'prod' }] }).expect(200);
      expect(res.body).toMatchObject({ id: jobs.deploy.id, status: 'pending', user: { username: 'maintainer' } });
      expect((await svc.deps.db('jobs').where({ id: jobs.deploy.id }).first()).job_variables).toEqual([{ key: 'TARGET', value: 'prod' }]);
      expect((await svc.deps.db('pipelines').where({ id: p.id }).first()).status).toBe('running');
    });
  });
});
