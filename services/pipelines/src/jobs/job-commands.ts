/**
 * What users do to one job (lib/api/ci/jobs.rb): cancel, retry (Ci::RetryJobService) and play
 * (Ci::PlayBuildService), each in one transaction with pipeline processing and events.
 * See ../shared/reference/runner.md §8, ci-config.md §13.
 */
import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { BadRequestError, ForbiddenError } from '@anvil/http';
import { cloneJobs, resetSkipped } from '../pipelines/pipeline-service';
import type { Pipeline } from '../pipelines/pipeline-row';
import { lockPipeline, upsertUser } from '../pipelines/pipeline-store';
import type { Job } from './job-row';
import { lockCurrentJobs } from './job-store';
import { processPipeline } from './processing';
import { RETRYABLE } from './status';
import { applyJobEvent } from './transitions';

async function locked(trx: Knex.Transaction, job: Job): Promise<{ pipeline: Pipeline; current: Job }> {
  const pipeline = (await lockPipeline(trx, job.pipeline_id)) as Pipeline;
  const current: Job = await trx('jobs').where({ id: job.id }).forUpdate().first();
  return { pipeline, current };
}

const reload = (trx: Knex.Transaction, id: number): Promise<Job> => trx('jobs').where({ id }).first();

/**
 * Cancels a job (a job that cannot be canceled is returned unchanged); `force` ends a job stuck in
 * `canceling` at once (GitLab's `force_cancel`).
 */
export async function cancelJob(db: Knex, job: Job, actor: Actor, force = false): Promise<Job> {
  return db.transaction(async (trx) => {
    const { current } = await locked(trx, job);
    await applyJobEvent(trx, current, force ? 'forceCancel' : 'cancel', { actorId: actor.id });
    await processPipeline(trx, job.pipeline_id, actor.id);
    return reload(trx, job.id);
  });
}

/** Whether a job may be retried: the latest of its name, a build, finished or canceling. */
export function isRetryable(job: Job): boolean {
  return !job.retried && job.type === 'build' && (RETRYABLE as readonly string[]).includes(job.status);
}

/**
 * Retries a job: a clone (new id) for `actor` replaces it, skipped jobs of later stages are
 * processed again, and a manual or delayed clone is enqueued at once. Returns the clone.
 */
export async function retryJob(db: Knex, job: Job, actor: Actor, variables: { key: string; value: string }[] = []): Promise<Job> {
  return db.transaction(async (trx) => {
    const { pipeline, current } = await locked(trx, job);
    if (!isRetryable(current)) throw new ForbiddenError('Job is not retryable');
    await upsertUser(trx, actor);
    const [clone] = await cloneJobs(trx, pipeline, [current], actor);
    if (variables.length) await trx('jobs').where({ id: clone.id }).update({ job_variables: JSON.stringify(variables) });
    const later = (await lockCurrentJobs(trx, pipeline.id)).filter((j) => j.stage_idx > current.stage_idx || j.needs !== null);
    await resetSkipped(trx, pipeline, later, actor.id);
    await processPipeline(trx, pipeline.id, actor.id);
    const processed = await reload(trx, clone.id);
    if (processed.status === 'manual' || processed.status === 'scheduled') {
      await applyJobEvent(trx, processed, 'enqueue', { actorId: actor.id });
      await processPipeline(trx, pipeline.id, actor.id);
    }
    return reload(trx, clone.id);
  });
}

/**
 * Plays a manual or delayed job (enqueues it with `variables`), or re-runs a finished manual job
 * as a retry; anything else is GitLab's `400 Bad request - Unplayable Job`.
 */
export async function playJob(db: Knex, job: Job, actor: Actor, variables: { key: string; value: string }[]): Promise<Job> {
  if (!job.retried && job.when === 'manual' && isRetryable(job)) return retryJob(db, job, actor, variables);
  return db.transaction(async (trx) => {
    const { current } = await locked(trx, job);
    if (current.retried || (current.status !== 'manual' && current.status !== 'scheduled')) throw new BadRequestError('Unplayable Job');
    await upsertUser(trx, actor);
    await trx('jobs').where({ id: job.id }).update({ user_id: actor.id, job_variables: JSON.stringify(variables) });
    await applyJobEvent(trx, { ...current, user_id: actor.id }, 'enqueue', { actorId: actor.id });
    await processPipeline(trx, job.pipeline_id, actor.id);
    return reload(trx, job.id);
  });
}
