import type { TestService } from '@anvil/testing';
import { transitionJob } from '../../src/jobs';
import { PipelinesWorld, startPipelines } from '../support/pipelines';

describe('pipeline commands', () => {
  let svc: TestService;
  let world: PipelinesWorld;
  let project: ReturnType<PipelinesWorld['project']>;
  const base = () => `/api/v4/projects/${project.id}/pipelines`;

  beforeAll(async () => {
    ({ svc, world } = await startPipelines());
    project = world.project();
    await world.commit(project);
  });
  afterAll(() => svc?.stop());

  describe('POST /projects/:id/pipelines/:pipeline_id/cancel', () => {
    it('cancels every cancelable job (200, Ci::Pipeline) and answers the same for a finished pipeline', async () => {
      const p = await world.pipeline(project);
      const res = await world.as(world.users.developer, project).post(`${base()}/${p.id}/cancel`).expect(200);
      expect(res.body).toMatchObject({ id: p.id, status: 'canceled', detailed_status: { text: 'Canceled' } });
      expect(res.body).not.toHaveProperty('name');
      expect(Object.values(await world.jobs(p.id)).map((j) => j.status)).toEqual(['canceled', 'canceled', 'canceled', 'canceled']);
      const again = await world.as(world.users.developer, project).post(`${base()}/${p.id}/cancel`).expect(200);
      expect(again.body.status).toBe('canceled');
      const events = await svc.deps.db('outbox').where({ type: 'pipelines.pipeline.status_changed' }).whereRaw("data->>'id' = ?", [String(p.id)]).orderBy('id');
      expect(events.map((e) => [e.data.previous_status, e.data.status])).toEqual([['created', 'pending'], ['pending', 'canceled']]);
    });

    it('is 401 anonymous, 403 for a reporter, 404 for an unknown pipeline', async () => {
      const p = await world.pipeline(project);
      await world.as(null, project).post(`${base()}/${p.id}/cancel`).expect(401);
      await world.as(world.users.reporter, project).post(`${base()}/${p.id}/cancel`).expect(403, { message: '403 Forbidden' });
      await world.as(world.users.developer, project).post(`${base()}/999999/cancel`).expect(404, { message: '404 Not found' });
    });
  });

  describe('POST /projects/:id/pipelines/:pipeline_id/retry', () => {
    it('clones failed and canceled jobs, re-processes skipped ones and runs again (201)', async () => {
      const p = await world.pipeline(project);
      const build = (await world.jobs(p.id)).build;
      await transitionJob(svc.deps.db, build.id, 'run');
      await transitionJob(svc.deps.db, build.id, 'drop', { failureReason: 'script_failure' });
      expect(Object.values(await world.jobs(p.id)).map((j) => j.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
      const res = await world.as(world.users.maintainer, project).post(`${base()}/${p.id}/retry`).expect(201);
      expect(res.body).toMatchObject({ id: p.id, status: 'pending' });
      expect(res.body.finished_at).toBeNull();
      const jobs = await world.jobs(p.id);
      expect(Object.fromEntries(Object.entries(jobs).map(([k, j]) => [k, j.status]))).toEqual({ build: 'pending', unit: 'created', lint: 'created', deploy: 'created' });
      expect(jobs.build.id).not.toBe(build.id);
      expect(jobs.build.user_id).toBe(world.users.maintainer.id);
      expect((await svc.deps.db('jobs').where({ id: build.id }).first()).retried).toBe(true);
      const events = await svc.deps.db('outbox').where('type', 'like', 'pipelines.job.%').whereRaw("data->>'pipeline_id' = ?", [String(p.id)]).orderBy('id');
      const retryEvents = events.slice(events.findIndex((e) => e.type === 'pipelines.job.retried'));
      expect(retryEvents.map((e) => [e.type, e.data.name, e.data.previous_status, e.data.status])).toEqual([
        ['pipelines.job.retried', 'build', 'failed', 'failed'], ['pipelines.job.created', 'build', null, 'created'],
        ['pipelines.job.status_changed', 'unit', 'skipped', 'created'], ['pipelines.job.status_changed', 'lint', 'skipped', 'created'],
        ['pipelines.job.status_changed', 'deploy', 'skipped', 'created'], ['pipelines.job.status_changed', 'build', 'created', 'pending'],
      ]);
    });

    it('leaves a pipeline without retryable jobs as it is (201)', async () => {
      const p = await world.pipeline(project);
      const res = await world.as(world.users.developer, project).post(`${base()}/${p.id}/retry`).expect(201);
      expect(res.body.status).toBe('pending');
      expect(await svc.deps.db('jobs').where({ pipeline_id: p.id })).toHaveLength(4);
    });
  });

  describe('PUT /projects/:id/pipelines/:pipeline_id/metadata', () => {
    it('renames (stripped) and answers PipelineWithMetadata, writing an updated event', async () => {
      const p = await world.pipeline(project);
      const res = await world.as(world.users.developer, project).put(`${base()}/${p.id}/metadata`).send({ name: '  Release build ' }).expect(200);
      expect(res.body).toMatchObject({ id: p.id, name: 'Release build' });
      const event = await svc.deps.db('outbox').where({ type: 'pipelines.pipeline.updated' }).whereRaw("data->>'id' = ?", [String(p.id)]).first();
      expect(event.data.name).toBe('Release build');
    });

    it('answers 400 for a missing or too long name, 403 for a reporter', async () => {
      const p = await world.pipeline(project);
      await world.as(world.users.developer, project).put(`${base()}/${p.id}/metadata`).send({}).expect(400, { error: 'name is missing' });
      await world.as(world.users.developer, project).put(`${base()}/${p.id}/metadata`).send({ name: 'x'.repeat(256) })
        .expect(400, { message: 'Failed to update pipeline - Name is too long (maximum is 255 characters)' });
      await world.as(world.users.reporter, project).put(`${base()}/${p.id}/metadata`).send({ name: 'n' }).expect(403, { message: '403 Forbidden' });
    });
  });

  describe('DELETE /projects/:id/pipelines/:pipeline_id', () => {
    it('lets an owner or an administrator delete (204) with its jobs and variables; a maintainer gets 403', async () => {
      const p = await world.pipeline(project, 'main', { variables: [{ key: 'A', value: 'b' }] });
      await world.as(world.users.maintainer, project).delete(`${base()}/${p.id}`).expect(403, { message: '403 Forbidden' });
      await world.as(world.users.owner, project).delete(`${base()}/${p.id}`).expect(204, '');
      await world.as(world.users.owner, project).get(`${base()}/${p.id}`).expect(404, { message: '404 Not found' });
      expect(await svc.deps.db('jobs').where({ pipeline_id: p.id })).toHaveLength(0);
      expect(await svc.deps.db('pipeline_variables').where({ pipeline_id: p.id })).toHaveLength(0);
      const event = await svc.deps.db('outbox').where({ type: 'pipelines.pipeline.deleted' }).whereRaw("data->>'id' = ?", [String(p.id)]).first();
      expect(event.data.actor_id).toBe(world.users.owner.id);
      const q = await world.pipeline(project);
      await world.as(world.users.admin, project).delete(`${base()}/${q.id}`).expect(204);
    });

    it('is 412 when the pipeline changed after If-Unmodified-Since, 401 anonymous', async () => {
      const p = await world.pipeline(project);
      await world.as(null, project).delete(`${base()}/${p.id}`).expect(401);
      await world.as(world.users.owner, project).delete(`${base()}/${p.id}`).set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT').expect(412);
    });
  });
});
