/**
 * Pipeline creation (GitLab's Ci::CreatePipelineService): resolve the ref, read and compile
 * `.gitlab-ci.yml`, then create the pipeline, its variables and jobs in one transaction and
 * process it. Any chain error leaves nothing stored and is a 400 `{"message":{"base":[...]}}`.
 * See ../shared/reference/ci-config.md §9.
 */
import type { Knex } from 'knex';
import type { Actor, ProjectScope } from '@anvil/auth';
import { ValidationError } from '@anvil/http';
import type { CompileContext, CompiledJob, CompileResult } from '../ci-config/types';
import { getCommit } from '../repository/repository-store';
import type { RepositoryReader } from '../repository/types';
import { emitJobEvent, emitPipelineEvent, jobPayload, JobEvents, PipelineEvents } from '../events/pipeline-events';
import type { NewJob } from '../jobs/job-row';
import { insertJobs } from '../jobs/job-store';
import { processPipeline, pipelineEventData, type Processed } from '../jobs/processing';
import { predefinedPipelineVariables, variableMap } from '../jobs/variables';
import type { PipelineVariable } from './pipeline-row';
import { insertPipeline, insertVariables, nextPipelineIid, upsertUser } from './pipeline-store';

/** The CI configuration file GitLab reads by default. */
export const CI_CONFIG_PATH = '.gitlab-ci.yml';

/** GitLab's message when no job is left for the pipeline (`Chain::Populate`). */
export const NO_JOBS_MESSAGE = 'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.';

/** The compiler pipeline creation calls (`compileCiConfig` of src/ci-config). */
export type CompileFn = (yaml: string, ctx: CompileContext) => Promise<CompileResult>;

/** What creating a pipeline needs besides the database. */
export interface CreateDeps {
  repository: RepositoryReader;
  compile: CompileFn;
}

/** A create request. */
export interface CreateInput {
  project: ProjectScope;
  user: Actor;
  ref: string;
  source: string;
  variables: PipelineVariable[];
  baseUrl: string;
}

function baseError(message: string): ValidationError {
  return new ValidationError({ base: [message] });
}

/** Resolves, reads and compiles; throws GitLab's 400 for the first failing step. */
export async function compileFor(db: Knex, deps: CreateDeps, input: CreateInput) {
  const resolved = await deps.repository.resolveRef(db, input.project.id, input.ref);
  if (!resolved) throw baseError('Reference not found');
  const yaml = await deps.repository.readFile(db, input.project.id, resolved.sha, CI_CONFIG_PATH);
  if (yaml === null) throw baseError('Missing CI config file');
  const defaultBranch = await deps.repository.defaultBranch(db, input.project.id);
  const facts = { ref: resolved.ref, sha: resolved.sha, beforeSha: resolved.beforeSha, tag: false, source: input.source, projectId: input.project.id,
    projectPath: input.project.path_with_namespace, defaultBranch, baseUrl: input.baseUrl, user: input.user };
  const result = await deps.compile(yaml, {
    ref: resolved.ref, sha: resolved.sha, source: input.source, defaultBranch, tag: false,
    projectPath: input.project.path_with_namespace, projectWebUrl: `${input.baseUrl}/${input.project.path_with_namespace}`,
    variables: { ...predefinedPipelineVariables(facts), ...variableMap(input.variables) },
    readLocal: (path) => deps.repository.readFile(db, input.project.id, resolved.sha, path.replace(/^\/+/, '')),
  });
  if (!result.ok) throw baseError(result.errors[0] ?? 'Invalid configuration format');
  if (!result.jobs.some((j) => j.stage !== '.pre' && j.stage !== '.post')) throw baseError(NO_JOBS_MESSAGE);
  return { resolved, result: result as Extract<CompileResult, { ok: true }> };
}

/** The job row of a compiled job. */
function jobRow(j: CompiledJob, pipelineId: number, projectId: number, userId: number): NewJob {
  return {
    pipeline_id: pipelineId, project_id: projectId, name: j.name, stage: j.stage, stage_idx: j.stageIdx, when: j.when,
    allow_failure: j.allowFailure, allow_failure_exit_codes: j.allowFailureExitCodes, needs: j.needs, tags: j.tags,
    timeout: j.timeoutSeconds, start_in: j.startInSeconds, user_id: userId, variables: j.variables,
    options: { ...j.options, script: j.script, before_script: j.beforeScript, after_script: j.afterScript, image: j.image,
      services: j.services, artifacts: j.artifacts, retry: j.retry },
  };
}

/** What is stored for a compiled configuration. */
export interface Seed {
  ref: string;
  sha: string;
  beforeSha: string;
  tag: boolean;
  name?: string | null;
  committedAt?: Date | null;
  jobs: CompiledJob[];
}

/**
 * Stores a pipeline for `seed` in one transaction: the pipeline, its variables and jobs, events
 * for each, then processing (which may enqueue jobs and move the pipeline to `pending`).
 */
export async function storePipeline(db: Knex, input: Omit<CreateInput, 'ref' | 'baseUrl'>, seed: Seed): Promise<Processed> {
  return db.transaction(async (trx) => {
    await upsertUser(trx, input.user);
    const iid = await nextPipelineIid(trx, input.project);
    const pipeline = await insertPipeline(trx, {
      project_id: input.project.id, iid, ref: seed.ref, sha: seed.sha, before_sha: seed.beforeSha, tag: seed.tag,
      source: input.source, user_id: input.user.id, name: seed.name ?? null, committed_at: seed.committedAt ?? null,
    });
    await insertVariables(trx, pipeline.id, input.variables);
    const jobs = await insertJobs(trx, seed.jobs.map((j) => jobRow(j, pipeline.id, input.project.id, input.user.id)));
    const path = input.project.path_with_namespace;
    for (const job of jobs) await emitJobEvent(trx, JobEvents.created, jobPayload(job, pipeline, { projectPath: path, previousStatus: null, actorId: input.user.id }));
    await emitPipelineEvent(trx, PipelineEvents.created, await pipelineEventData(trx, pipeline, jobs, null, input.user.id));
    return processPipeline(trx, pipeline.id, input.user.id);
  });
}

/** Creates a pipeline on `input.ref` from the project's `.gitlab-ci.yml` (POST /projects/:id/pipeline). */
export async function createPipeline(db: Knex, deps: CreateDeps, input: CreateInput): Promise<Processed> {
  const { resolved, result } = await compileFor(db, deps, input);
  const commit = await getCommit(db, input.project.id, resolved.sha);
  const seed = { ref: resolved.ref, sha: resolved.sha, beforeSha: resolved.beforeSha, tag: false, committedAt: commit?.committed_at ?? null, jobs: result.jobs };
  return storePipeline(db, input, seed);
}
