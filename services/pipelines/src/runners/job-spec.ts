import type { Knex } from 'knex';
import { jobVariables, projectPath, type Job, type Pipeline, type RunnerVariable } from '../jobs';
import type { Runner } from './types';

/** The default job timeout (GitLab's project `build_timeout` default: one hour). */
export const DEFAULT_JOB_TIMEOUT = 3600;
/** GitLab's default `ci_default_git_depth` for new projects. */
export const DEFAULT_GIT_DEPTH = 20;

/** A job of the same pipeline whose artifacts the job receives. */
export interface Dependency {
  id: number;
  name: string;
  artifactsFile: { filename: string; size: number } | null;
}

/** Everything the runner's job payload is built from (GitLab's `Ci::BuildRunnerPresenter`). */
export interface JobSpec {
  job: Job;
  pipeline: Pipeline;
  runner: Runner;
  token: string;
  projectPath: string;
  baseUrl: string;
  variables: RunnerVariable[];
  dependencies: Dependency[];
  timeout: number;
  gitDepth: number;
  runningOnInstanceRunners: number;
}

/** The job's variables with the runner's own (`CI_JOB_TOKEN`, `CI_RUNNER_*`, `CI_REPOSITORY_URL`). */
function withRunnerVariables(vars: RunnerVariable[], s: Pick<JobSpec, 'token' | 'runner' | 'baseUrl' | 'projectPath'>): RunnerVariable[] {
  const out = new Map(vars.map((v) => [v.key, v]));
  const put = (key: string, value: string, masked = false, isPublic = true) => out.set(key, { key, value, public: isPublic, masked });
  put('CI_JOB_TOKEN', s.token, true, false);
  put('CI_RUNNER_ID', String(s.runner.id));
  put('CI_RUNNER_DESCRIPTION', s.runner.description);
  put('CI_RUNNER_TAGS', JSON.stringify(s.runner.tagList));
  put('CI_REPOSITORY_URL', repoUrl(s.baseUrl, s.projectPath, s.token), false, false);
  return [...out.values()];
}

/** The project's HTTP clone URL with `gitlab-ci-token:<job token>@` injected. */
export function repoUrl(baseUrl: string, path: string, token: string): string {
  const u = new URL(`${baseUrl.replace(/\/$/, '')}/${path}.git`);
  u.username = 'gitlab-ci-token';
  u.password = token;
  return u.toString();
}

/** Jobs whose artifacts `job` receives: its `needs` with artifacts, else every job of earlier stages. */
async function dependenciesOf(db: Knex, job: Job): Promise<Dependency[]> {
  const q = db('jobs as j')
    .leftJoin('job_artifacts as a', function () {
      this.on('a.job_id', 'j.id').andOnVal('a.file_type', 'archive');
    })
    .select('j.id', 'j.name', 'a.filename', 'a.size')
    .where({ 'j.pipeline_id': job.pipeline_id, 'j.retried': false })
    .orderBy('j.id');
  if (job.needs) q.whereIn('j.name', job.needs.filter((n) => n.artifacts).map((n) => n.job));
  else q.where('j.stage_idx', '<', job.stage_idx);
  const rows: { id: number; name: string; filename: string | null; size: string | null }[] = await q;
  return rows.map((r) => ({ id: r.id, name: r.name, artifactsFile: r.filename ? { filename: r.filename, size: Number(r.size) } : null }));
}

/** Collects what the payload of `job`, just assigned to `runner` with `token`, is built from. */
export async function jobSpec(db: Knex, job: Job, pipeline: Pipeline, runner: Runner, token: string, baseUrl: string): Promise<JobSpec> {
  const [path, vars, dependencies, running] = await Promise.all([
    projectPath(db, job.project_id),
    jobVariables(db, job, pipeline, baseUrl),
    dependenciesOf(db, job),
    runner.runnerType === 'instance_type'
      ? db('jobs as j').join('runners as r', 'r.id', 'j.runner_id').where({ 'j.project_id': job.project_id, 'j.status': 'running', 'r.runner_type': 'instance_type' }).count<{ n: string }[]>({ n: '*' })
      : Promise.resolve(null),
  ]);
  const projectFullPath = path ?? String(job.project_id);
  const depth = Number.parseInt(vars.find((v) => v.key === 'GIT_DEPTH')?.value ?? '', 10);
  const limit = runner.maximumTimeout;
  const timeout = Math.min(job.timeout ?? DEFAULT_JOB_TIMEOUT, limit ?? Number.MAX_SAFE_INTEGER);
  return {
    job, pipeline, runner, token, baseUrl, dependencies, timeout,
    projectPath: projectFullPath,
    variables: withRunnerVariables(vars, { token, runner, baseUrl, projectPath: projectFullPath }),
    gitDepth: Number.isFinite(depth) && depth >= 0 ? depth : DEFAULT_GIT_DEPTH,
    runningOnInstanceRunners: running ? Number(running[0].n) : -1,
  };
}
