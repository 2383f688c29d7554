/**
 * Commands on one pipeline: retry (Ci::RetryPipelineService), cancel (Ci::CancelPipelineService),
 * delete (Ci::DestroyPipelineService) and rename (Ci::Pipelines::UpdateMetadataService), each in
 * one transaction with its events. See ../shared/reference/ci-config.md §13, pipelines.md §7, §9.
 */
import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { HttpError } from '@anvil/http';
import { emitJobEvent, emitPipelineEvent, jobPayload, JobEvents, PipelineEvents } from '../events/pipeline-events';
import { cloneOf, insertJobs, lockCurrentJobs, markRetried } from '../jobs/job-store';
import { processPipeline, pipelineEventData, type Processed } from '../jobs/processing';
import { CANCELABLE } from '../jobs/status';
import { applyJobEvent } from '../jobs/transitions';
import type { Job } from '../jobs/job-row';
import type { Pipeline } from './pipeline-row';
import { deletePipelineRow, lockPipeline, projectPath, updatePipeline, upsertUser } from './pipeline-store';

/**
 * Clones `jobs` as new `created` jobs for `actor`, marks the originals retried and writes
 * `pipelines.job.retried` (original) and `pipelines.job.created` (clone) events.
 */
export async function cloneJobs(trx: Knex.Transaction, pipeline: Pipeline, jobs: Job[], actor: Actor): Promise<Job[]> {
  if (jobs.length === 0) return [];
  await markRetried(trx, jobs.map((j) => j.id));
  const clones = await insertJobs(trx, jobs.map((j) => cloneOf(j, actor.id)));
  const path = await projectPath(trx, pipeline.project_id);
  for (const j of jobs) await emitJobEvent(trx, JobEvents.retried, jobPayload({ ...j, retried: true }, pipeline, { projectPath: path, previousStatus: j.status, actorId: actor.id }));
  for (const c of clones) await emitJobEvent(trx, JobEvents.created, jobPayload(c, pipeline, { projectPath: path, previousStatus: null, actorId: actor.id }));
  return clones;
}

/** Sets `skipped` jobs back to `created` so processing decides again (Ci::ResetSkippedJobsService), with their events. */
export async function resetSkipped(trx: Knex.Transaction, pipeline: Pipeline, jobs: Job[], actorId: number): Promise<void> {
  const ids = jobs.filter((j) => j.status === 'skipped').map((j) => j.id);
  if (ids.length === 0) return;
  const reset: Job[] = await trx('jobs').whereIn('id', ids).update({ status: 'created', updated_at: trx.fn.now() }).returning('*');
  const path = await projectPath(trx, pipeline.project_id);
  for (const j of reset) await emitJobEvent(trx, JobEvents.statusChanged, jobPayload(j, pipeline, { projectPath: path, previousStatus: 'skipped', actorId }));
}

/** Retries every failed or canceled job and re-processes skipped ones; no-op when none is retryable. */
export async function retryPipeline(db: Knex, pipelineId: number, actor: Actor): Promise<Processed> {
  return db.transaction(async (trx) => {
    const pipeline = (await lockPipeline(trx, pipelineId)) as Pipeline;
    await upsertUser(trx, actor);
    const jobs = await lockCurrentJobs(trx, pipelineId);
    const retryable = jobs.filter((j) => j.type === 'build' && (j.status === 'failed' || j.status === 'canceled'));
    if (retryable.length === 0) return processPipeline(trx, pipelineId, actor.id);
    await cloneJobs(trx, pipeline, retryable, actor);
    await resetSkipped(trx, pipeline, jobs, actor.id);
    return processPipeline(trx, pipelineId, actor.id);
  });
}

/** Cancels every cancelable job; a pipeline with none is returned unchanged. */
export async function cancelPipeline(db: Knex, pipelineId: number, actor: Actor): Promise<Processed> {
  return db.transaction(async (trx) => {
    await lockPipeline(trx, pipelineId);
    const jobs = await lockCurrentJobs(trx, pipelineId);
    for (const job of jobs) if ((CANCELABLE as readonly string[]).includes(job.status)) await applyJobEvent(trx, job, 'cancel', { actorId: actor.id });
    return processPipeline(trx, pipelineId, actor.id);
  });
}

/** Deletes a pipeline with its jobs and variables, writing `pipelines.pipeline.deleted` first. */
export async function deletePipeline(db: Knex, pipelineId: number, actor: Actor): Promise<void> {
  await db.transaction(async (trx) => {
    const pipeline = (await lockPipeline(trx, pipelineId)) as Pipeline;
    const jobs = await lockCurrentJobs(trx, pipelineId);
    await emitPipelineEvent(trx, PipelineEvents.deleted, await pipelineEventData(trx, pipeline, jobs, pipeline.status, actor.id));
    await deletePipelineRow(trx, pipelineId);
  });
}

/** The longest pipeline name (Ci::PipelineMetadata validation). */
export const MAX_NAME_LENGTH = 255;

/** Renames a pipeline (stripped); a blank or too long name is GitLab's 400 "Failed to update pipeline - …". */
export async function renamePipeline(db: Knex, pipelineId: number, name: string, actor: Actor): Promise<Pipeline> {
  const stripped = name.trim();
  const errors: string[] = [];
  if (stripped.length === 0) errors.push('Name is too short (minimum is 1 character)');
  if (stripped.length > MAX_NAME_LENGTH) errors.push(`Name is too long (maximum is ${MAX_NAME_LENGTH} characters)`);
  if (errors.length) throw new HttpError(400, { message: `Failed to update pipeline - ${errors.join(', ')}` });
  return db.transaction(async (trx) => {
    const before = (await lockPipeline(trx, pipelineId)) as Pipeline;
    const pipeline = await updatePipeline(trx, pipelineId, { name: stripped });
    const jobs = await lockCurrentJobs(trx, pipelineId);
    await emitPipelineEvent(trx, PipelineEvents.updated, await pipelineEventData(trx, pipeline, jobs, before.status, actor.id));
    return pipeline;
  });
}
