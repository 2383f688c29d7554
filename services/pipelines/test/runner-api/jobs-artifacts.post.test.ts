import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { newUploadKey } from '@anvil/auth';
import { actor, projectScope, startService, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { runningJob } from './helpers';

const JUNIT = '<testsuite name="unit"><testcase classname="a" name="passes" time="0.5"/><testcase classname="a" name="breaks" time="1"><failure>boom</failure></testcase><testcase classname="a" name="later"><skipped/></testcase></testsuite>';
const BOUNDARY = 'anvil-boundary-1';

function multipart(file: Buffer, filename = 'junit.xml.gz'): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe('POST /jobs/:id/artifacts', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(async () => {
    await svc?.stop();
  });
  const upload = (id: number, token: string, query: string, body: Buffer) =>
    svc.as({}).post(`/api/v4/jobs/${id}/artifacts${query}`).set('JOB-TOKEN', token).set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`).send(body);

  it('stores a gzipped JUnit report streamed with the request (201) and records its metadata', async () => {
    const job = await runningJob(svc, 1001);
    const gz = gzipSync(JUNIT);
    const r = await upload(job.id, job.token, '?artifact_type=junit&artifact_format=gzip&expire_in=1%20week', multipart(gz)).expect(201);
    expect(r.body).toBe(201);
    const row = await svc.deps.db('job_artifacts').where({ job_id: job.id }).first();
    expect(row).toMatchObject({ file_type: 'junit', file_format: 'gzip', filename: 'junit.xml.gz', size: String(gz.length), pipeline_id: String(job.pipeline.id) });
    expect(row.expire_at.getTime() - Date.now()).toBeGreaterThan(6.9 * 86400_000);
    const stored = await svc.deps.storage.get(row.storage_key);
    const chunks: Buffer[] = [];
    for await (const c of stored!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(gz)).toBe(true);
  });

  it('records a body the gateway stored, deleting the upload object; the same content again is 201, other content 400', async () => {
    const job = await runningJob(svc, 1002);
    const body = multipart(gzipSync(JUNIT));
    const key = newUploadKey();
    await svc.deps.storage.put(key, Readable.from([body]));
    const path = `/api/v4/jobs/${job.id}/artifacts?artifact_type=junit&artifact_format=gzip`;
    const transfer = { phase: 'stored' as const, upload: { key, size: body.length, md5: '', sha1: '', sha256: '' } };
    await svc.as({ transfer }).post(path).set('JOB-TOKEN', job.token).set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`).expect(201);
    expect(await svc.deps.storage.head(key)).toBeNull();
    expect(await svc.deps.db('job_artifacts').where({ job_id: job.id }).count({ n: '*' })).toEqual([{ n: '1' }]);
    await upload(job.id, job.token, '?artifact_type=junit&artifact_format=gzip', body).expect(201);
    const other = await upload(job.id, job.token, '?artifact_type=junit&artifact_format=gzip', multipart(gzipSync('<testsuite/>'))).expect(400);
    expect(other.body).toEqual({ message: 'another artifact of the same type already exists' });
  });

  it('answers a pre-authorisation with the size limit, and refuses a declared size past it', async () => {
    const job = await runningJob(svc, 1003);
    const path = `/api/v4/jobs/${job.id}/artifacts?artifact_type=junit`;
    const ok = await svc.as({ transfer: { phase: 'authorize', declared: 10 } }).post(path).set('JOB-TOKEN', job.token).expect(200);
    expect(ok.body).toEqual({ MaximumSize: 100 * 1024 * 1024 });
    await svc.as({ transfer: { phase: 'authorize', declared: 200 * 1024 * 1024 } }).post(path).set('JOB-TOKEN', job.token).expect(413);
  });

  it('returns 403 for a wrong job token, 400 for an unknown artifact_type or no file part', async () => {
    const job = await runningJob(svc, 1004);
    await upload(job.id, 'glcbt-nope', '', multipart(Buffer.from('x'))).expect(403);
    await upload(job.id, job.token, '?artifact_type=everything', multipart(Buffer.from('x'))).expect(400, { error: 'artifact_type does not have a valid value' });
    const empty = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`);
    await upload(job.id, job.token, '', empty).expect(400, { error: 'file is missing' });
  });

  describe('then GET /projects/:id/pipelines/:pipeline_id/test_report(_summary)', () => {
    const reporter = actor('reporter');
    it('builds the report from the stored JUnit artifacts', async () => {
      const job = await runningJob(svc, 1005);
      await upload(job.id, job.token, '?artifact_type=junit&artifact_format=gzip', multipart(gzipSync(JUNIT))).expect(201);
      const project = projectScope(1005, { access_level: 20 });
      const report = await svc.as({ user: reporter, project }).get(`/api/v4/projects/1005/pipelines/${job.pipeline.id}/test_report`).expect(200);
      expect(report.body).toMatchObject({ total_time: 1.5, total_count: 3, success_count: 1, failed_count: 1, skipped_count: 1, error_count: 0 });
      expect(report.body.test_suites).toHaveLength(1);
      expect(report.body.test_suites[0]).toMatchObject({ name: 'only', total_count: 3, suite_error: null });
      expect(report.body.test_suites[0].test_cases[0]).toEqual({ status: 'failed', name: 'breaks', classname: 'a', file: null, execution_time: 1, system_output: 'boom', stack_trace: null });
      const summary = await svc.as({ user: reporter, project }).get(`/api/v4/projects/1005/pipelines/${job.pipeline.id}/test_report_summary`).expect(200);
      expect(summary.body).toEqual({
        total: { time: 1.5, count: 3, success: 1, failed: 1, skipped: 1, error: 0, suite_error: null },
        test_suites: [{ name: 'only', total_time: 1.5, total_count: 3, success_count: 1, failed_count: 1, skipped_count: 1, error_count: 0, build_ids: [job.id], suite_error: null }],
      });
    });

    it('answers all zeros for a pipeline without reports, 404 for an unknown pipeline, 403 for a guest of a private project', async () => {
      const job = await runningJob(svc, 1006);
      const project = projectScope(1006, { access_level: 20 });
      const empty = await svc.as({ user: reporter, project }).get(`/api/v4/projects/1006/pipelines/${job.pipeline.id}/test_report`).expect(200);
      expect(empty.body).toEqual({ total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [] });
      await svc.as({ user: reporter, project }).get('/api/v4/projects/1006/pipelines/999999/test_report').expect(404, { message: '404 Not found' });
      await svc.as({ user: reporter, project: { ...project, access_level: 10 } }).get(`/api/v4/projects/1006/pipelines/${job.pipeline.id}/test_report`).expect(403);
    });
  });
});
