import { startService, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { runningJob } from './helpers';

describe('PATCH /jobs/:id/trace', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(async () => {
    await svc?.stop();
  });
  const patch = (id: number, token: string, range: string | null, body: string) => {
    const t = svc.as({}).patch(`/api/v4/jobs/${id}/trace`).set('JOB-TOKEN', token).set('Content-Type', 'text/plain');
    return (range === null ? t : t.set('Content-Range', range)).send(body);
  };
  const trace = async (id: number) => Buffer.concat((await svc.deps.db('job_trace_chunks').where({ job_id: id }).orderBy('start_offset')).map((c) => c.data)).toString();

  it('appends at byte offsets: 202 with Job-Status, Range and X-GitLab-Trace-Update-Interval', async () => {
    const job = await runningJob(svc, 901);
    const r = await patch(job.id, job.token, '0-5', 'hello ').expect(202);
    expect(r.headers).toMatchObject({ 'job-status': 'running', range: '0-6', 'x-gitlab-trace-update-interval': '60' });
    await patch(job.id, job.token, '6-11', 'world\n').expect(202).expect('Range', '0-12');
    expect(await trace(job.id)).toBe('hello world\n');
  });

  it('answers 416 with the current Range on a gap, and rewrites from an earlier offset', async () => {
    const job = await runningJob(svc, 902);
    await patch(job.id, job.token, '0-3', 'abcd').expect(202);
    const gap = await patch(job.id, job.token, '10-12', 'xyz').expect(416);
    expect(gap.body).toEqual({ message: '416 Range Not Satisfiable' });
    expect(gap.headers.range).toBe('0-4');
    await patch(job.id, job.token, '2-4', 'XYZ').expect(202).expect('Range', '0-5');
    expect(await trace(job.id)).toBe('abXYZ');
  });

  it('returns 400 without Content-Range and 403 once the job has finished', async () => {
    const job = await runningJob(svc, 903);
    await patch(job.id, job.token, null, 'x').expect(400, { message: '400 Missing header Content-Range' });
    await svc.as({}).put(`/api/v4/jobs/${job.id}`).send({ token: job.token, state: 'success' }).expect(200);
    const r = await patch(job.id, job.token, '0-0', 'x').expect(403);
    expect(r.headers['job-status']).toBe('success');
  });
});
