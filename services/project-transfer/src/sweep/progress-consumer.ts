import type { Knex } from 'knex';
import { type TransferJobKind, TransferPartEvents, type TransferPartProgressedV1 } from '@anvil/events';
import type { Consumer } from '@anvil/runtime';
import { RUNNING_JOBS } from './jobs';

/** The queue the parts' heartbeats are consumed from (the replicas share it). */
export const PART_PROGRESS_QUEUE = 'project-transfer.part-progress';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID = /^[1-9][0-9]{0,17}$/;

/** Per kind of job: how the heartbeat's `job_id` selects its row (table and running statuses: `RUNNING_JOBS`). */
const JOBS: Record<TransferJobKind, { column: string; valid: RegExp }> = {
  export: { column: 'job_id', valid: UUID },
  import: { column: 'id', valid: ID },
  relation_import: { column: 'id', valid: ID },
};

/**
 * Records a part's heartbeat as its job's progress: `updated_at` moves to the heartbeat's `at` (never
 * past now, never back), only while the job runs. A heartbeat for a finished, failed or unknown job, or
 * one that names no job, changes nothing. Returns whether a job moved.
 */
export async function recordProgress(db: Knex, data: Partial<TransferPartProgressedV1>): Promise<boolean> {
  if (!Object.hasOwn(JOBS, String(data.kind))) return false;
  const job = { ...JOBS[data.kind as TransferJobKind], ...RUNNING_JOBS[data.kind as TransferJobKind] };
  const id = String(data.job_id ?? '');
  if (!job.valid.test(id)) return false;
  const at = typeof data.at === 'string' && !Number.isNaN(Date.parse(data.at)) ? new Date(data.at) : new Date();
  const n = await db(job.table)
    .where(job.column, id)
    .whereIn(job.status, job.running)
    .update({ updated_at: db.raw('GREATEST(updated_at, LEAST(?::timestamptz, now()))', [at.toISOString()]) });
  return n > 0;
}

/**
 * Consumes `*.transfer.part.progressed`: each heartbeat of a part still working moves its job's
 * progress, so the stuck-job sweep re-drives a job only when its heartbeats stop. Idempotent (a
 * redelivered or late heartbeat never moves progress back).
 */
export function partProgressConsumer(db: Knex): Consumer {
  return {
    queue: PART_PROGRESS_QUEUE,
    patterns: [TransferPartEvents.progressedPattern],
    handler: async (event) => void (await recordProgress(db, event.data as Partial<TransferPartProgressedV1>)),
  };
}
