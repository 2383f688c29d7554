import { actor, projectScope, startService, type TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';
import { findJob, pickPendingJob, transitionJob } from '../../src/jobs';
import { storePipeline } from '../../src/pipelines/create-pipeline';
import { compiledJob } from '../support/compiled';

describe('pipeline processing', () => {
  let svc: TestService;
  const user = actor('dev');
  const project = projectScope(501, { access_level: 30 });
  const create = (jobs: Parameters<typeof compiledJob>[]) =>
    storePipeline(svc.deps.db, { project, user, source: 'api', variables: [{ key: 'V', value: '1', variable_type: 'env_var' }] }, {
      ref: 'main', sha: 'a'.repeat(40), beforeSha: '0'.repeat(40), tag: false, jobs: jobs.map((j) => compiledJob(...j)),
    });
  const statuses = async (pipelineId: number) =>
    Object.fromEntries((await svc.deps.db('jobs').where({ pipeline_id: pipelineId, retried: false }).orderBy('id')).map((j) => [j.name, j.status]));

  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(() => svc?.stop());

  it('enqueues the first stage, holds later stages, and follows job results', async () => {
    const { pipeline } = await create([['build', 'build', 1], ['test', 'test', 2], ['cleanup', 'test', 2, { when: 'on_failure' }], ['deploy', 'deploy', 3, { when: 'manual', allowFailure: true }]]);
    expect(pipeline.status).toBe('pending');
    expect(pipeline.iid).toBeGreaterThan(0);
    expect(await statuses(pipeline.id)).toEqual({ build: 'pending', test: 'created', cleanup: 'created', deploy: 'created' });
    const picked = await pickPendingJob(svc.deps.db, { runnerId: 7, tags: [], runUntagged: true, projectIds: null }, 'digest-1');
    expect(picked).toMatchObject({ name: 'build', status: 'running', runner_id: 7 });
    expect((await svc.deps.db('pipelines').where({ id: pipeline.id }).first()).status).toBe('running');
    await transitionJob(svc.deps.db, picked!.id, 'succeed');
    expect(await statuses(pipeline.id)).toEqual({ build: 'success', test: 'pending', cleanup: 'skipped', deploy: 'created' });
    const test = await svc.deps.db('jobs').where({ pipeline_id: pipeline.id, name: 'test' }).first();
    await transitionJob(svc.deps.db, test.id, 'run');
    const r = await transitionJob(svc.deps.db, test.id, 'succeed');
    expect(await statuses(pipeline.id)).toEqual({ build: 'success', test: 'success', cleanup: 'skipped', deploy: 'manual' });
    expect(r!.processed.pipeline.status).toBe('success');
    expect(r!.processed.pipeline.finished_at).not.toBeNull();
  });

  it('skips on_success jobs after a failure and runs on_failure ones; a blocking manual job blocks', async () => {
    const { pipeline } = await create([['a', 'build', 1], ['b', 'test', 2], ['c', 'test', 2, { when: 'on_failure' }]]);
    const a = await svc.deps.db('jobs').where({ pipeline_id: pipeline.id, name: 'a' }).first();
    const r = await transitionJob(svc.deps.db, a.id, 'drop', { failureReason: 'script_failure', exitCode: 1 });
    expect(await statuses(pipeline.id)).toEqual({ a: 'failed', b: 'skipped', c: 'pending' });
    expect(r!.job).toMatchObject({ failure_reason: 'script_failure', exit_code: 1 });
    expect(r!.processed.pipeline.status).toBe('running');
    const blocked = await create([['gate', 'build', 1, { when: 'manual', allowFailure: false }], ['after', 'test', 2]]);
    expect(blocked.pipeline.status).toBe('manual');
    expect(await statuses(blocked.pipeline.id)).toEqual({ gate: 'manual', after: 'created' });
  });

  it('starts a DAG job when its needs succeed, regardless of stage', async () => {
    const { pipeline } = await create([['a', 'build', 1], ['slow', 'build', 1], ['b', 'test', 2, { needs: [{ job: 'a', artifacts: true, optional: false }] }], ['free', 'test', 2, { needs: [] }]]);
    expect(await statuses(pipeline.id)).toEqual({ a: 'pending', slow: 'pending', b: 'created', free: 'pending' });
    const a = await svc.deps.db('jobs').where({ pipeline_id: pipeline.id, name: 'a' }).first();
    await transitionJob(svc.deps.db, a.id, 'run');
    await transitionJob(svc.deps.db, a.id, 'succeed');
    expect((await statuses(pipeline.id)).b).toBe('pending');
  });

  it('gives a tagged job only to a runner with its tags, and each job to one runner', async () => {
    const { pipeline } = await create([['tagged', 'build', 1, { tags: ['docker'] }]]);
    const match = { tags: ['shell'], runUntagged: false, projectIds: [project.id] };
    expect(await pickPendingJob(svc.deps.db, { runnerId: 1, ...match }, 'd-2')).toBeNull();
    const picks = await Promise.all([1, 2, 3].map((n) => pickPendingJob(svc.deps.db, { runnerId: n, tags: ['docker', 'x'], runUntagged: false, projectIds: [project.id] }, `d-3-${n}`)));
    const got = picks.filter((x) => x && x.pipeline_id === pipeline.id);
    expect(got).toHaveLength(1);
    expect((await findJob(svc.deps.db, got[0]!.id))!.status).toBe('running');
  });

  it('writes job and pipeline events for every status change', async () => {
    const { pipeline } = await create([['only', 'test', 2]]);
    const events = await svc.deps.db('outbox').whereRaw("(type LIKE 'pipelines.pipeline.%' AND data->>'id' = ?) OR (type LIKE 'pipelines.job.%' AND data->>'pipeline_id' = ?)", [String(pipeline.id), String(pipeline.id)]).orderBy('id');
    const types = events.map((e) => `${e.type}:${e.data.status}`);
    expect(types).toEqual(['pipelines.job.created:created', 'pipelines.pipeline.created:created', 'pipelines.job.status_changed:pending', 'pipelines.pipeline.status_changed:pending']);
    const created = events[1].data;
    expect(created).toMatchObject({ project_path: project.path_with_namespace, variables: [{ key: 'V', value: '1' }], user: { id: user.id, username: 'dev' }, stages: ['test'] });
  });
});

describe('delayed jobs', () => {
  let svc: TestService;
  const user = actor('delayer');
  const project = projectScope(502, { access_level: 30 });

  beforeAll(async () => {
    svc = await startService(pipelinesService);
  });
  afterAll(() => svc?.stop());

  it('schedules a delayed job for start_in and enqueues it once due, by the running service', async () => {
    const { pipeline } = await storePipeline(svc.deps.db, { project, user, source: 'api', variables: [] }, {
      ref: 'main', sha: 'b'.repeat(40), beforeSha: '0'.repeat(40), tag: false,
      jobs: [compiledJob('later', 'test', 2, { when: 'delayed', startInSeconds: 1 })],
    });
    expect(pipeline.status).toBe('scheduled');
    const job = await svc.deps.db('jobs').where({ pipeline_id: pipeline.id }).first();
    expect(job.status).toBe('scheduled');
    expect(+job.scheduled_at - +job.created_at).toBeGreaterThanOrEqual(900);
    const deadline = Date.now() + 10_000;
    let status = job.status;
    while (status === 'scheduled' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await svc.deps.db('jobs').where({ id: job.id }).first()).status;
    }
    expect(status).toBe('pending');
    expect((await svc.deps.db('pipelines').where({ id: pipeline.id }).first()).status).toBe('pending');
  });
});
