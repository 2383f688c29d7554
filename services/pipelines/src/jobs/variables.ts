/**
 * The variables a job runs with (GitLab's Gitlab::Ci::Variables::Builder, the subset this service
 * knows): predefined pipeline and job variables < YAML variables < pipeline variables.
 * See ../shared/reference/ci-config.md §7.
 */
import type { Db } from './job-store';
import type { Job } from './job-row';
import type { Pipeline, PipelineVariable } from '../pipelines/pipeline-row';
import { projectPath, usersByIds, variablesOf } from '../pipelines/pipeline-store';

/** One variable as the runner receives it (`Collection::Item#to_runner_variable`). */
export interface RunnerVariable {
  key: string;
  value: string;
  public: boolean;
  masked: boolean;
  file?: true;
}

/** GitLab's CI_COMMIT_REF_SLUG: lower-cased, non-alphanumerics to `-`, at most 63 chars, no edge dashes. */
export function refSlug(ref: string): string {
  return ref.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
}

/** What the predefined pipeline variables are built from. */
export interface PipelineFacts {
  ref: string;
  sha: string;
  beforeSha: string;
  tag: boolean;
  source: string;
  projectId: number;
  projectPath: string;
  defaultBranch: string | null;
  baseUrl: string;
  pipelineId?: number;
  pipelineIid?: number;
  user?: { id: number; username: string; name: string } | null;
}

/** The predefined variables of a pipeline (also what rules see at compile time). */
export function predefinedPipelineVariables(f: PipelineFacts): Record<string, string> {
  const segments = f.projectPath.split('/');
  const v: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER_URL: f.baseUrl,
    CI_PROJECT_ID: String(f.projectId),
    CI_PROJECT_PATH: f.projectPath,
    CI_PROJECT_NAME: segments[segments.length - 1],
    CI_PROJECT_NAMESPACE: segments.slice(0, -1).join('/'),
    CI_PROJECT_URL: `${f.baseUrl}/${f.projectPath}`,
    CI_PIPELINE_SOURCE: f.source,
    CI_COMMIT_SHA: f.sha,
    CI_COMMIT_SHORT_SHA: f.sha.slice(0, 8),
    CI_COMMIT_BEFORE_SHA: f.beforeSha,
    CI_COMMIT_REF_NAME: f.ref,
    CI_COMMIT_REF_SLUG: refSlug(f.ref),
  };
  if (f.tag) v.CI_COMMIT_TAG = f.ref;
  else v.CI_COMMIT_BRANCH = f.ref;
  if (f.defaultBranch) v.CI_DEFAULT_BRANCH = f.defaultBranch;
  if (f.pipelineId !== undefined) {
    v.CI_PIPELINE_ID = String(f.pipelineId);
    v.CI_PIPELINE_URL = `${f.baseUrl}/${f.projectPath}/-/pipelines/${f.pipelineId}`;
  }
  if (f.pipelineIid !== undefined) v.CI_PIPELINE_IID = String(f.pipelineIid);
  if (f.user) Object.assign(v, { GITLAB_USER_ID: String(f.user.id), GITLAB_USER_LOGIN: f.user.username, GITLAB_USER_NAME: f.user.name });
  return v;
}

/** Pipeline variables by name (what a compile context receives). */
export function variableMap(vars: PipelineVariable[]): Record<string, string> {
  return Object.fromEntries(vars.map((v) => [v.key, v.value]));
}

/**
 * Every variable job `job` of `pipeline` runs with, in precedence order (a later key overrides an
 * earlier one): predefined, job (`CI_JOB_*`), YAML, pipeline variables, variables given on play.
 */
export async function jobVariables(db: Db, job: Job, pipeline: Pipeline, baseUrl: string): Promise<RunnerVariable[]> {
  const path = await projectPath(db, job.project_id);
  const users = await usersByIds(db, [job.user_id ?? pipeline.user_id]);
  const pipelineVars = await variablesOf(db, pipeline.id);
  const projectFullPath = path ?? String(job.project_id);
  const out = new Map<string, RunnerVariable>();
  const put = (key: string, value: string, extra: Partial<RunnerVariable> = {}) => out.set(key, { key, value, public: true, masked: false, ...extra });
  const facts: PipelineFacts = {
    ref: pipeline.ref, sha: pipeline.sha, beforeSha: pipeline.before_sha, tag: pipeline.tag, source: pipeline.source,
    projectId: job.project_id, projectPath: projectFullPath, defaultBranch: null, baseUrl,
    pipelineId: pipeline.id, pipelineIid: pipeline.iid, user: users.get(job.user_id ?? pipeline.user_id ?? -1) ?? null,
  };
  for (const [k, v] of Object.entries(predefinedPipelineVariables(facts))) put(k, v);
  put('CI_JOB_ID', String(job.id));
  put('CI_JOB_NAME', job.name);
  put('CI_JOB_STAGE', job.stage);
  put('CI_JOB_URL', `${baseUrl}/${projectFullPath}/-/jobs/${job.id}`);
  for (const [k, v] of Object.entries(job.variables)) put(k, v);
  for (const v of pipelineVars) put(v.key, v.value, { public: false, ...(v.variable_type === 'file' ? { file: true as const } : {}) });
  for (const v of job.job_variables) put(v.key, v.value, { public: false });
  return [...out.values()];
}
