import type { TestService } from '@anvil/testing';
import { PipelinesWorld, startPipelines } from '../support/pipelines';

describe('GET /projects/:id/pipelines/:pipeline_id, /latest and /variables', () => {
  let svc: TestService;
  let world: PipelinesWorld;
  let project: ReturnType<PipelinesWorld['project']>;
  let pipeline: { id: number; sha: string };

  beforeAll(async () => {
    ({ svc, world } = await startPipelines());
    project = world.project();
    await world.commit(project);
    pipeline = await world.pipeline(project, 'main', { variables: [{ key: 'SECRET', value: 's3' }, { key: 'F', value: 'file body', variable_type: 'file' }] });
  });
  afterAll(() => svc?.stop());

  describe('GET /projects/:id/pipelines/:pipeline_id', () => {
    it('returns PipelineWithMetadata (name included) to a reporter', async () => {
      const res = await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/${pipeline.id}`).expect(200);
      expect(res.body).toMatchObject({ id: pipeline.id, iid: 1, name: null, status: 'pending', ref: 'main', detailed_status: { text: 'Pending', group: 'pending' } });
      expect(res.body.user.username).toBe('developer');
    });

    it('shows "passed with warnings" when a job allowed to fail failed', async () => {
      await svc.deps.db('jobs').where({ pipeline_id: pipeline.id }).update({ status: 'success' });
      await svc.deps.db('jobs').where({ pipeline_id: pipeline.id, name: 'lint' }).update({ status: 'failed' });
      await svc.deps.db('pipelines').where({ id: pipeline.id }).update({ status: 'success' });
      const res = await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/${pipeline.id}`).expect(200);
      expect(res.body.detailed_status).toMatchObject({ icon: 'status_warning', text: 'Warning', label: 'passed with warnings', group: 'success-with-warnings', favicon: '/assets/ci_favicons/favicon_status_success.png' });
    });

    it('is 404 Not found for an unknown or foreign pipeline, 400 for a non-integer id, 403 for a guest', async () => {
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/999999`).expect(404, { message: '404 Not found' });
      const other = world.project();
      await world.as(world.users.reporter, other).get(`/api/v4/projects/${other.id}/pipelines/${pipeline.id}`).expect(404, { message: '404 Not found' });
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/abc`).expect(400, { error: 'pipeline_id is invalid' });
      await world.as(world.users.guest, project).get(`/api/v4/projects/${project.id}/pipelines/${pipeline.id}`).expect(403, { message: '403 Forbidden' });
    });
  });

  describe('GET /projects/:id/pipelines/latest', () => {
    it('returns the newest pipeline of the head commit of the default branch or the given ref', async () => {
      const res = await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/latest`).expect(200);
      expect(res.body).toMatchObject({ id: pipeline.id, name: null });
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/latest?ref=main`).expect(200);
    });

    it('is 403 when the head commit has no pipeline or the ref is unknown', async () => {
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/latest?ref=nope`).expect(403, { message: '403 Forbidden' });
      await world.commit(project, { 'new.txt': 'n' });
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/latest`).expect(403, { message: '403 Forbidden' });
    });
  });

  describe('GET /projects/:id/pipelines/:pipeline_id/variables', () => {
    it('lists the variables to a developer', async () => {
      const res = await world.as(world.users.developer, project).get(`/api/v4/projects/${project.id}/pipelines/${pipeline.id}/variables`).expect(200);
      expect(res.body).toEqual([{ variable_type: 'env_var', key: 'SECRET', value: 's3' }, { variable_type: 'file', key: 'F', value: 'file body' }]);
    });

    it('is 403 to a reporter and to anonymous callers of a public project, 404 for an unknown pipeline', async () => {
      await world.as(world.users.reporter, project).get(`/api/v4/projects/${project.id}/pipelines/${pipeline.id}/variables`).expect(403, { message: '403 Forbidden' });
      await world.as(null, { ...project, visibility: 'public' }).get(`/api/v4/projects/${project.id}/pipelines/${pipeline.id}/variables`).expect(403);
      await world.as(world.users.developer, project).get(`/api/v4/projects/${project.id}/pipelines/999999/variables`).expect(404, { message: '404 Not found' });
    });
  });
});
