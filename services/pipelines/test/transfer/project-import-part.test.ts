import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { TestService } from '@anvil/testing';
import type { PipelinesWorld } from '../support/pipelines';
import { BATCH_LINES } from '../../src/transfer/import-consumer';
import { readLines, request, startTransferPipelines } from './support';

let svc: TestService;
let world: PipelinesWorld;
let stop: () => Promise<void>;
let importId = 9000;

beforeAll(async () => {
  ({ svc, world, stop } = await startTransferPipelines());
});
afterAll(async () => stop?.());

/** A pipeline line in the older layout GitLab's own fixtures use: no iid, `stages[].statuses[]`, a running job. */
const LEGACY = {
  id: 36, project_id: 5, ref: null, sha: 'sha-notes', before_sha: null, status: 'running', user_id: 77, source: 'push',
  created_at: '2016-03-22T15:20:35.755Z', updated_at: '2016-03-22T15:20:35.755Z', pipeline_metadata: { name: 'Build pipeline' },
  stages: [
    { name: 'test', status: 1, statuses: [
      { status: 'failed', name: 'test build 1', stage: 'test', stage_idx: 1, options: { image: 'busybox:latest' }, allow_failure: false, type: 'Ci::Build', token: 'abcd', trace: 'x', user_id: null },
      { status: 'running', name: 'test build 2', stage: 'deploy', stage_idx: 1, options: null, allow_failure: false },
    ] },
    { name: 'deploy', status: 2 },
  ],
};

async function importInto(projectId: number, lines: unknown[], userMap: Record<string, number> = {}) {
  const import_id = importId++;
  const prefix = `imports/${randomUUID()}/`;
  await svc.deps.storage.put(`${prefix}tree/project/ci_pipelines.ndjson`, Readable.from([lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n']));
  return request(svc, 'transfer.import.unpacked', { import_id, project_id: projectId, user_id: 42, prefix, user_map: userMap }, 'pipelines.import.part.completed', 'import_id', import_id);
}

describe('transfer.import.unpacked → pipelines part', () => {
  it('imports an exported project: pipelines with their iids, stages and jobs; a second import skips them and reports what the project holds', async () => {
    const source = world.project();
    await world.commit(source);
    const a = await world.pipeline(source);
    const b = await world.pipeline(source);
    const export_id = randomUUID();
    const prefix = `exports/${export_id}/`;
    await request(svc, 'transfer.export.requested', { export_id, project_id: source.id, user_id: 1, description: null, prefix }, 'pipelines.export.part.completed', 'export_id', export_id);
    const exported = await readLines(svc, `${prefix}tree/project/ci_pipelines.ndjson`);

    const target = world.project();
    const done = await importInto(target.id, exported, { [String(world.users.developer.id)]: 555 });
    expect(done).toMatchObject({ project_id: target.id, part: 'pipelines', counts: { ci_pipelines: 2, stages: 6, builds: 8 }, failures: [] });
    const rows = await svc.deps.db('pipelines').where({ project_id: target.id }).orderBy('iid');
    expect(rows.map((p) => [p.iid, p.sha, p.ref, p.source, p.user_id])).toEqual([[a.iid, a.sha, 'main', 'api', 555], [b.iid, b.sha, 'main', 'api', 555]]);
    expect(rows.every((p) => p.status === 'canceled')).toBe(true);
    const jobs = await svc.deps.db('jobs').where({ pipeline_id: rows[0].id }).orderBy('id');
    const fields = (j: Record<string, any>) => [j.name, j.stage, j.stage_idx, j.when, j.allow_failure, j.options, j.variables, j.tags];
    const sourceJobs = await svc.deps.db('jobs').where({ pipeline_id: a.id }).orderBy('stage_idx').orderBy('id');
    expect(jobs.map(fields)).toEqual(sourceJobs.map(fields));
    expect(jobs.map((j) => j.name)).toEqual(['build', 'unit', 'lint', 'deploy']);
    expect(jobs.every((j) => j.token_digest === null && ['canceled', 'manual'].includes(j.status))).toBe(true);

    const again = await importInto(target.id, exported);
    expect(again).toMatchObject({ counts: { ci_pipelines: 2, stages: 6, builds: 8 }, failures: [] });
    expect(await svc.deps.db('pipelines').where({ project_id: target.id }).count('* as n').first()).toEqual({ n: '2' });

    await world.commit(target);
    const next = await world.pipeline(target);
    expect(next.iid).toBe(b.iid + 1);
    const listed = await world.as(world.users.developer, target).get(`/api/v4/projects/${target.id}/pipelines`).expect(200);
    expect(listed.body.map((p: any) => p.iid)).toEqual([next.iid, b.iid, a.iid]);
  });

  it('imports more pipelines than a batch holds in batches; a bad line fails alone, and the iid counter goes past the highest', async () => {
    const target = world.project();
    const line = (iid: number) => ({ iid, sha: `sha-${iid}`, ref: 'main', status: 'success', source: 'push', user_id: 9,
      stages: [{ name: 'test', status: 'success', builds: [{ name: 'unit', stage: 'test', stage_idx: 1, status: 'success' }, { name: 'lint', stage: 'test', stage_idx: 1, status: 'running' }] }] });
    const lines: unknown[] = Array.from({ length: BATCH_LINES + 30 }, (_, i) => line(i + 1));
    lines.splice(50, 0, { iid: 9999, ref: 'main', stages: [] });
    lines.push(line(3));
    const done = await importInto(target.id, lines, { 9: 909 });
    expect(done.failures.map((f: { line_number: number; exception_message: string }) => [f.line_number, f.exception_message])).toEqual([[50, 'sha is missing']]);
    expect(done.counts).toEqual({ ci_pipelines: BATCH_LINES + 30, stages: BATCH_LINES + 30, builds: 2 * (BATCH_LINES + 30) });
    const rows = await svc.deps.db('pipelines').where({ project_id: target.id }).orderBy('iid').select('id', 'iid', 'sha', 'user_id', 'status');
    expect(rows).toHaveLength(BATCH_LINES + 30);
    expect(rows[2]).toMatchObject({ iid: 3, sha: 'sha-3', user_id: 909, status: 'success' });
    expect(await svc.deps.db('jobs').where({ pipeline_id: rows[2].id }).orderBy('id').select('name', 'status')).toEqual([{ name: 'unit', status: 'success' }, { name: 'lint', status: 'canceled' }]);
    expect((await svc.deps.db('ci_projects').where({ id: target.id }).first()).last_pipeline_iid).toBe(BATCH_LINES + 30);
  });

  it('imports the older layout (no iid, stages[].statuses) and reports lines it cannot import as failed relations', async () => {
    const target = world.project();
    const done = await importInto(target.id, [LEGACY, '{not json', { ref: 'main', stages: [] }]);
    expect(done.counts).toEqual({ ci_pipelines: 1, stages: 2, builds: 2 });
    expect(done.failures).toEqual([
      { relation_name: 'ci_pipelines', line_number: 1, exception_class: 'SyntaxError', exception_message: expect.any(String) },
      { relation_name: 'ci_pipelines', line_number: 2, exception_class: 'Error', exception_message: 'sha is missing' },
    ]);
    const pipeline = await svc.deps.db('pipelines').where({ project_id: target.id }).first();
    expect(pipeline).toMatchObject({ iid: 1, name: 'Build pipeline', sha: 'sha-notes', before_sha: '0'.repeat(40), status: 'canceled', user_id: 42, source: 'push' });
    const jobs = await svc.deps.db('jobs').where({ pipeline_id: pipeline.id }).orderBy('id');
    expect(jobs.map((j) => [j.name, j.status, j.options])).toEqual([['test build 1', 'failed', { image: 'busybox:latest' }], ['test build 2', 'canceled', {}]]);
  });
});
