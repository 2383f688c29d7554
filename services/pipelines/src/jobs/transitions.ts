/**
 * Job status transitions (GitLab's commit_status.rb state machine), each followed by pipeline
 * processing in the same transaction. See ../shared/reference/pipelines.md §1, runner.md §7.
 */
import type { Knex } from 'knex';
import { emitJobEvent, jobPayload, JobEvents } from '../events/pipeline-events';
import { lockPipeline, projectPath } from '../pipelines/pipeline-store';
import type { Job } from './job-row';
import { processPipeline, type Processed } from './processing';
import type { Status } from './status';

/** What can happen to a job. */
export type JobEvent = 'enqueue' | 'run' | 'succeed' | 'drop' | 'cancel' | 'forceCancel' | 'skip';

/** Details a runner reports with `drop` (failed) or `succeed`. */
export interface TransitionDetails {
  failureReason?: string | null;
  exitCode?: number | null;
  /** The user acting (for events), null for a runner. */
  actorId?: number | null;
}

const ACTIVE: Status[] = ['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running'];

/** The status `event` moves a job in `job.status` to, or null when the event does not apply. */
export function targetStatus(job: Pick<Job, 'status' | 'cancel_gracefully'>, event: JobEvent): Status | null {
  const s = job.status;
  switch (event) {
    case 'enqueue':
      return ['created', 'skipped', 'manual', 'scheduled'].includes(s) ? 'pending' : null;
    case 'run':
      return s === 'pending' ? 'running' : null;
    case 'succeed':
      return s === 'canceling' ? 'canceled' : ACTIVE.includes(s) ? 'success' : null;
    case 'drop':
      return s === 'canceling' ? 'canceled' : [...ACTIVE, 'manual', 'scheduled'].includes(s) ? 'failed' : null;
    case 'cancel':
      if (s === 'running' && job.cancel_gracefully) return 'canceling';
      return [...ACTIVE, 'manual', 'scheduled'].includes(s) ? 'canceled' : null;
    case 'forceCancel':
      return s === 'canceling' ? 'canceled' : null;
    case 'skip':
      return ['created', 'waiting_for_resource', 'preparing', 'pending'].includes(s) ? 'skipped' : null;
  }
}

/** The columns a job takes on moving to `to` at `now`. */
function patchFor(job: Job, to: Status, now: Date, d: TransitionDetails): Partial<Job> {
  const patch: Partial<Job> = { status: to };
  if (to === 'pending') patch.queued_at = now;
  if (to === 'running') patch.started_at = now;
  if (['success', 'failed', 'canceled'].includes(to)) patch.finished_at = now;
  if (to === 'failed') {
    patch.failure_reason = d.failureReason ?? 'unknown_failure';
    patch.exit_code = d.exitCode ?? null;
    if (d.exitCode !== undefined && d.exitCode !== null && job.allow_failure_exit_codes.includes(d.exitCode)) patch.allow_failure = true;
  }
  if (to === 'success' && d.exitCode !== undefined) patch.exit_code = d.exitCode;
  return patch;
}

/**
 * Applies `event` to a job already locked in `trx` (its pipeline locked first), writes a
 * `pipelines.job.status_changed` event, and returns the job (unchanged when the event does not apply).
 */
export async function applyJobEvent(trx: Knex.Transaction, job: Job, event: JobEvent, d: TransitionDetails = {}): Promise<{ job: Job; changed: boolean }> {
  const to = targetStatus(job, event);
  if (!to || to === job.status) return { job, changed: false };
  const [row] = await trx('jobs').where({ id: job.id }).update({ ...patchFor(job, to, new Date(), d), updated_at: trx.fn.now() }).returning('*');
  const pipeline = await lockPipeline(trx, job.pipeline_id);
  if (pipeline) {
    const path = await projectPath(trx, job.project_id);
    await emitJobEvent(trx, JobEvents.statusChanged, jobPayload(row, pipeline, { projectPath: path, previousStatus: job.status, actorId: d.actorId ?? null }));
  }
  return { job: row, changed: true };
}

/**
 * Moves job `jobId` by `event` and re-processes its pipeline, in one transaction. Returns the job
 * after processing and whether it changed, or null for an unknown job.
 */
export async function transitionJob(db: Knex, jobId: number, event: JobEvent, d: TransitionDetails = {}): Promise<{ job: Job; changed: boolean; processed: Processed } | null> {
  return db.transaction(async (trx) => {
    const head = await trx('jobs').select('pipeline_id').where({ id: jobId }).first();
    if (!head) return null;
    await lockPipeline(trx, head.pipeline_id);
    const job: Job = await trx('jobs').where({ id: jobId }).forUpdate().first();
    const { changed } = await applyJobEvent(trx, job, event, d);
    const processed = await processPipeline(trx, job.pipeline_id, d.actorId ?? null);
    const after: Job = await trx('jobs').where({ id: jobId }).first();
    return { job: after, changed, processed };
  });
}
