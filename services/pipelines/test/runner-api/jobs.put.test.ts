import { startService, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { runningJob } from './helpers';

describe('PUT /jobs/:id', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(async () => {
    await svc?.stop();
  });
  const put = (id: number) => svc.as({}).put(`/api/v4/jobs/${id}`);

  it('keeps a running job alive (200, Job-Status running)', async () => {
    const job = await runningJob(svc, 801);
    const r = await put(job.id).send({ token: job.token, state: 'running' }).expect(200);
    expect(r.headers['job-status']).toBe('running');
    expect(r.body).toBe(200);
  });

  it('succeeds a job, processes the pipeline, and refuses the token afterwards with 403 and Job-Status', async () => {
    const job = await runningJob(svc, 802, [['build', 'build', 0, { tags: ['p802'] }], ['test', 'test', 1, { tags: ['p802'] }]]);
    const r = await put(job.id).send({ token: job.token, state: 'success', exit_code: 0 }).expect(200);
    expect(r.headers['job-status']).toBe('success');
    const jobs = await svc.deps.db('jobs').where({ pipeline_id: job.pipeline.id }).orderBy('id');
    expect(jobs.map((j) => [j.name, j.status])).toEqual([['build', 'success'], ['test', 'pending']]);
    const again = await put(job.id).send({ token: job.token, state: 'running' }).expect(403);
    expect(again.body).toEqual({ message: '403 Forbidden - Job is not processing on runner' });
    expect(again.headers['job-status']).toBe('success');
  });

  it('fails a job with its failure reason and exit code; unknown reasons become unknown_failure', async () => {
    const a = await runningJob(svc, 803);
    await put(a.id).send({ token: a.token, state: 'failed', failure_reason: 'script_failure', exit_code: 2 }).expect(200);
    expect(await svc.deps.db('jobs').where({ id: a.id }).first()).toMatchObject({ status: 'failed', failure_reason: 'script_failure', exit_code: 2 });
    expect((await svc.deps.db('pipelines').where({ id: a.pipeline.id }).first()).status).toBe('failed');
    const b = await runningJob(svc, 804);
    await put(b.id).set('JOB-TOKEN', b.token).send({ token: b.token, state: 'failed', failure_reason: 'cosmic_rays' }).expect(200);
    expect((await svc.deps.db('jobs').where({ id: b.id }).first()).failure_reason).toBe('unknown_failure');
  });

  it('returns 403 for a wrong token or an unknown job, 400 without a token or with an unknown state', async () => {
    const job = await runningJob(svc, 805);
    await put(job.id).send({ token: 'glcbt-wrong', state: 'success' }).expect(403, { message: '403 Forbidden' });
    await put(999999).send({ token: job.token, state: 'success' }).expect(403);
    await put(job.id).send({ state: 'success' }).expect(400, { error: 'token is missing' });
    await put(job.id).send({ token: job.token, state: 'exploded' }).expect(400, { error: 'state does not have a valid value' });
    expect((await svc.deps.db('jobs').where({ id: job.id }).first()).status).toBe('running');
  });
});
