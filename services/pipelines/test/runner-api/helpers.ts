import { actor, projectScope, type TestService } from '@anvil/testing';
import { storePipeline } from '../../src/pipelines/create-pipeline';
import { compiledJob } from '../support/compiled';

export const admin = actor('root', { admin: true });

/** A runner created through the API: its id and token. */
export async function newRunner(svc: TestService, body: Record<string, unknown> = { runner_type: 'instance_type' }): Promise<{ id: number; token: string }> {
  const r = await svc.as({ user: admin }).post('/api/v4/user/runners').send(body).expect(201);
  return r.body;
}

/** A pipeline of `jobs` (name, stage, stage index, overrides) stored for project `projectId`. */
export async function newPipeline(svc: TestService, projectId: number, jobs: Parameters<typeof compiledJob>[]) {
  const project = projectScope(projectId, { access_level: 30, path_with_namespace: `grp/proj-${projectId}` });
  const { pipeline } = await storePipeline(svc.deps.db, { project, user: admin, source: 'api', variables: [{ key: 'PIPE_VAR', value: 'v', variable_type: 'env_var' }] }, {
    ref: 'main', sha: 'b'.repeat(40), beforeSha: '0'.repeat(40), tag: false, jobs: jobs.map((j) => compiledJob(...j)),
  });
  return pipeline;
}

/** A job of a fresh pipeline taken by a fresh runner: the job's id and token, and the pipeline. */
export async function runningJob(svc: TestService, projectId: number, jobs: Parameters<typeof compiledJob>[] = [['only', 'test', 0, { tags: [`p${projectId}`] }]]) {
  const pipeline = await newPipeline(svc, projectId, jobs);
  const runner = await newRunner(svc, { runner_type: 'instance_type', tag_list: [`p${projectId}`], run_untagged: false });
  const r = await svc.as({}).post('/api/v4/jobs/request').send({ token: runner.token }).expect(201);
  return { id: r.body.id as number, token: r.body.token as string, pipeline, runner };
}
