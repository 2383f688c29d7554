import type { TestService } from '@anvil/testing';
import { CI_YAML, PipelinesWorld, startPipelines } from '../support/pipelines';

describe('POST /projects/:id/pipeline', () => {
  let svc: TestService;
  let world: PipelinesWorld;
  const url = (id: number) => `/api/v4/projects/${id}/pipeline`;

  beforeAll(async () => {
    ({ svc, world } = await startPipelines());
  });
  afterAll(() => svc?.stop());

  describe('as a developer', () => {
    it('creates the pipeline with its variables and jobs (201, Ci::Pipeline without name)', async () => {
      const project = world.project();
      const sha = await world.commit(project);
      const res = await world.as(world.users.developer, project).post(url(project.id))
        .send({ ref: 'main', variables: [{ key: 'DEPLOY', value: 'yes' }, { key: 'CERT', value: 'pem', variable_type: 'file' }] }).expect(201);
      const body = res.body;
      expect(Object.keys(body).sort()).toEqual(['before_sha', 'committed_at', 'coverage', 'created_at', 'detailed_status', 'duration', 'finished_at', 'id', 'iid',
        'project_id', 'queued_duration', 'ref', 'sha', 'source', 'started_at', 'status', 'tag', 'updated_at', 'user', 'web_url', 'yaml_errors']);
      expect(body).toMatchObject({ iid: 1, project_id: project.id, ref: 'main', sha, before_sha: '0'.repeat(40), tag: false, source: 'api', status: 'pending',
        yaml_errors: null, coverage: null, web_url: `http://127.0.0.1:8080/${project.path_with_namespace}/-/pipelines/${body.id}`,
        user: { id: world.users.developer.id, username: 'developer', name: 'developer', state: 'active', locked: false, avatar_url: null, web_url: 'http://127.0.0.1:8080/developer' } });
      expect(body.committed_at).not.toBeNull();
      expect(body.detailed_status).toEqual({ icon: 'status_pending', text: 'Pending', label: 'pending', group: 'pending', tooltip: 'pending', has_details: true,
        details_path: `/${project.path_with_namespace}/-/pipelines/${body.id}`, illustration: null, favicon: '/assets/ci_favicons/favicon_status_pending.png' });
      const jobs = await world.jobs(body.id);
      expect(Object.fromEntries(Object.entries(jobs).map(([k, j]) => [k, [j.stage, j.status, j.allow_failure]]))).toEqual({
        build: ['build', 'pending', false], unit: ['test', 'created', false], lint: ['test', 'created', true], deploy: ['deploy', 'created', true],
      });
      expect(jobs.build.variables).toEqual({ GLOBAL: 'g' });
      const vars = await svc.deps.db('pipeline_variables').where({ pipeline_id: body.id }).orderBy('id');
      expect(vars.map((v) => [v.key, v.value, v.variable_type])).toEqual([['DEPLOY', 'yes', 'env_var'], ['CERT', 'pem', 'file']]);
      const events = await svc.deps.db('outbox').where({ type: 'pipelines.pipeline.created' }).whereRaw("data->>'id' = ?", [String(body.id)]);
      expect(events).toHaveLength(1);
      expect(events[0].data.builds.map((b: { name: string }) => b.name)).toEqual(['build', 'unit', 'lint', 'deploy']);
    });

    it('numbers pipelines per project', async () => {
      const project = world.project();
      await world.commit(project);
      expect((await world.pipeline(project)).iid).toBe(1);
      expect((await world.pipeline(project)).iid).toBe(2);
    });

    it('answers GitLab 400s for a missing ref, an unknown ref, a missing CI file and an invalid one, storing nothing', async () => {
      const project = world.project();
      const dev = () => world.as(world.users.developer, project).post(url(project.id));
      await dev().send({}).expect(400, { error: 'ref is missing' });
      await dev().send({ ref: 'main' }).expect(400, { message: { base: ['Reference not found'] } });
      await world.commit(project, { 'README.md': 'hi' });
      await dev().send({ ref: 'nope' }).expect(400, { message: { base: ['Reference not found'] } });
      await dev().send({ ref: 'main' }).expect(400, { message: { base: ['Missing CI config file'] } });
      await world.commit(project, { '.gitlab-ci.yml': 'unit:\n  script: ""\n' });
      await dev().send({ ref: 'main' }).expect(400, { message: { base: ["jobs:unit script can't be blank"] } });
      await dev().send({ ref: 'main', variables: [{ key: 'A', value: 'b', variable_type: 'blob' }] }).expect(400);
      expect(await svc.deps.db('pipelines').where({ project_id: project.id })).toHaveLength(0);
    });

    it('reports a configuration whose rules leave no job', async () => {
      const project = world.project();
      await world.commit(project, { '.gitlab-ci.yml': 'unit:\n  script: [x]\n  rules:\n    - if: $NOPE\n' });
      const res = await world.as(world.users.developer, project).post(url(project.id)).send({ ref: 'main' }).expect(400);
      expect(res.body.message.base[0]).toMatch(/^Pipeline will not run for the selected trigger|^No stages \/ jobs for this pipeline/);
    });
  });

  describe('authorization', () => {
    it('is 401 anonymous, 403 for reporters, 201 for maintainers, owners and administrators', async () => {
      const project = world.project('public');
      await world.commit(project, { '.gitlab-ci.yml': CI_YAML });
      await world.as(null, project).post(url(project.id)).send({ ref: 'main' }).expect(401, { message: '401 Unauthorized' });
      await world.as(world.users.reporter, project).post(url(project.id)).send({ ref: 'main' }).expect(403, { message: '403 Forbidden' });
      for (const u of [world.users.maintainer, world.users.owner, world.users.admin]) await world.as(u, project).post(url(project.id)).send({ ref: 'main' }).expect(201);
    });
  });
});
