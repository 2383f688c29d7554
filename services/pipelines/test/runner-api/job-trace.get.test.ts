import { actor, projectScope, startService, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { runningJob } from './helpers';

describe('GET /projects/:id/jobs/:job_id/trace', () => {
  let svc: TestService;
  const dev = actor('dev');
  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers the log as text/plain with its file name, empty before any output', async () => {
    const job = await runningJob(svc, 1101);
    const project = projectScope(1101, { access_level: 30 });
    const before = await svc.as({ user: dev, project }).get(`/api/v4/projects/1101/jobs/${job.id}/trace`).expect(200);
    expect(before.text).toBe('');
    await svc.as({}).patch(`/api/v4/jobs/${job.id}/trace`).set('JOB-TOKEN', job.token).set('Content-Range', '0-8').set('Content-Type', 'text/plain').send('line one\n').expect(202);
    const r = await svc.as({ user: dev, project }).get(`/api/v4/projects/1101/jobs/${job.id}/trace`).expect(200);
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.headers['content-disposition']).toBe(`infile; filename="${job.id}.log"`);
    expect(r.text).toBe('line one\n');
  });

  it('returns 404 for a job of another project and 403 for a guest of a private project', async () => {
    const job = await runningJob(svc, 1102);
    await svc.as({ user: dev, project: projectScope(1103, { access_level: 30 }) }).get(`/api/v4/projects/1103/jobs/${job.id}/trace`).expect(404, { message: '404 Not found' });
    await svc.as({ user: dev, project: projectScope(1102, { access_level: 10 }) }).get(`/api/v4/projects/1102/jobs/${job.id}/trace`).expect(403);
  });
});
