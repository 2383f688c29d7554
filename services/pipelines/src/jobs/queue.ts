/**
 * The job queue runners take from (GitLab's Ci::RegisterJobService, simplified to one query):
 * the oldest pending build whose tags the runner has, claimed with FOR UPDATE SKIP LOCKED so
 * concurrent runners never get the same job.
 */
import type { Knex } from 'knex';
import { emitJobEvent, jobPayload, JobEvents } from '../events/pipeline-events';
import { findPipelineById, projectPath } from '../pipelines/pipeline-store';
import type { Job } from './job-row';
import { processPipeline } from './processing';
import { transitionJob } from './transitions';

/** What decides whether a runner may take a job. */
export interface RunnerMatch {
  runnerId: number;
  /** The runner's tags: a job's tags must all be among them. */
  tags: string[];
  /** Whether the runner takes jobs without tags. */
  runUntagged: boolean;
  /** The projects a group or project runner serves; null for an instance runner (every project). */
  projectIds: number[] | null;
  /** The runner supports graceful cancel (`features.cancel_gracefully`): a running cancel goes through `canceling`. */
  cancelGracefully?: boolean;
}

/**
 * Claims the oldest pending job `match` allows: sets it `running` with the runner, the job token's
 * digest and `started_at`, writes its event, then re-processes its pipeline. Null when none is waiting.
 */
export async function pickPendingJob(db: Knex, match: RunnerMatch, tokenDigest: string): Promise<Job | null> {
  const job = await db.transaction(async (trx) => {
    const q = trx('jobs')
      .select('id')
      .where({ status: 'pending', type: 'build' })
      .whereRaw('tags <@ ?::text[]', [match.tags])
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked();
    if (!match.runUntagged) q.whereRaw('cardinality(tags) > 0');
    if (match.projectIds !== null) q.whereIn('project_id', match.projectIds);
    const head = await q.first();
    if (!head) return null;
    const [row]: Job[] = await trx('jobs')
      .where({ id: head.id })
      .update({ status: 'running', runner_id: match.runnerId, token_digest: tokenDigest, started_at: trx.fn.now(), cancel_gracefully: !!match.cancelGracefully, updated_at: trx.fn.now() })
      .returning('*');
    const pipeline = await findPipelineById(trx, row.pipeline_id);
    if (pipeline) await emitJobEvent(trx, JobEvents.statusChanged, jobPayload(row, pipeline, { projectPath: await projectPath(trx, row.project_id), previousStatus: 'pending', actorId: null }));
    return row;
  });
  if (!job) return null;
  await db.transaction((trx) => processPipeline(trx, job.pipeline_id));
  return job;
}

/** Enqueues delayed jobs whose time has come (`scheduled` → `pending`); returns how many moved. */
export async function enqueueDueJobs(db: Knex, now = new Date()): Promise<number> {
  const due: { id: number }[] = await db('jobs').select('id').where({ status: 'scheduled' }).where('scheduled_at', '<=', now).orderBy('id').limit(100);
  for (const { id } of due) await transitionJob(db, id, 'enqueue');
  return due.length;
}
