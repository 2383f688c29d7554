import type { Knex } from 'knex';
import type { Job, NewJob } from './job-row';
import type { Status } from './status';

/** Db handle or transaction. */
export type Db = Knex | Knex.Transaction;

/** JSON columns knex must send as JSON text. */
function jsonColumns(job: NewJob): Record<string, unknown> {
  return {
    ...job,
    needs: job.needs === null ? null : JSON.stringify(job.needs),
    options: JSON.stringify(job.options),
    variables: JSON.stringify(job.variables),
  };
}

/** Inserts jobs and returns them in insertion order. */
export async function insertJobs(db: Db, jobs: NewJob[]): Promise<Job[]> {
  if (jobs.length === 0) return [];
  return db('jobs').insert(jobs.map(jsonColumns)).returning('*');
}

/** A job by id, or null. */
export async function findJob(db: Db, id: number): Promise<Job | null> {
  return (await db('jobs').where({ id }).first()) ?? null;
}

/** A job of a project by id, or null. */
export async function findProjectJob(db: Db, projectId: number, id: number): Promise<Job | null> {
  return (await db('jobs').where({ id, project_id: projectId }).first()) ?? null;
}

/** The job holding a token with this digest (any status), or null. */
export async function findJobByTokenDigest(db: Db, digest: string): Promise<Job | null> {
  return (await db('jobs').where({ token_digest: digest }).first()) ?? null;
}

/** The current (not retried) jobs of a pipeline, locked FOR UPDATE, by stage then id. */
export async function lockCurrentJobs(trx: Knex.Transaction, pipelineId: number): Promise<Job[]> {
  return trx('jobs').where({ pipeline_id: pipelineId, retried: false }).orderBy([{ column: 'stage_idx' }, { column: 'id' }]).forUpdate();
}

/** The current (not retried) jobs of several pipelines, by stage then id. */
export async function currentJobsOf(db: Db, pipelineIds: number[]): Promise<Job[]> {
  if (pipelineIds.length === 0) return [];
  return db('jobs').whereIn('pipeline_id', pipelineIds).where({ retried: false }).orderBy([{ column: 'stage_idx' }, { column: 'id' }]);
}

/** The status and `allow_failure` of a pipeline's current jobs (what its detailed status needs). */
export async function currentJobStatuses(db: Db, pipelineId: number): Promise<Pick<Job, 'status' | 'allow_failure'>[]> {
  return db('jobs').select('status', 'allow_failure').where({ pipeline_id: pipelineId, retried: false });
}

/** Sets the given columns of a job (and `updated_at`), returning the row. */
export async function updateJob(db: Db, id: number, patch: Partial<Job>): Promise<Job> {
  const [row] = await db('jobs').where({ id }).update({ ...patch, updated_at: db.fn.now() }).returning('*');
  return row;
}

/** Marks jobs as retried (hidden from default lists and from the composite status). */
export async function markRetried(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db('jobs').whereIn('id', ids).update({ retried: true, updated_at: db.fn.now() });
}

/** The columns a clone of `job` starts with (GitLab's retry clone: same config, new user). */
export function cloneOf(job: Job, userId: number | null): NewJob {
  return {
    pipeline_id: job.pipeline_id,
    project_id: job.project_id,
    type: job.type,
    name: job.name,
    stage: job.stage,
    stage_idx: job.stage_idx,
    when: job.when,
    allow_failure: job.allow_failure,
    allow_failure_exit_codes: job.allow_failure_exit_codes,
    needs: job.needs,
    options: job.options,
    variables: job.variables,
    tags: job.tags,
    timeout: job.timeout,
    start_in: job.start_in,
    user_id: userId,
    retries: job.retries + 1,
  };
}

/** Whether `status` is one a job can be in now. */
export function isStatus(status: string, of: readonly Status[]): boolean {
  return (of as readonly string[]).includes(status);
}
