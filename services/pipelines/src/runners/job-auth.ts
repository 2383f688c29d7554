import type { Knex } from 'knex';
import { tokenMatches } from '@anvil/auth';
import { HttpError } from '@anvil/http';
import { EXECUTING, findJob, type Job } from '../jobs';

/** 403 as GitLab's runner API answers it, with the job's status in `Job-Status` when there is a job. */
export function jobForbidden(reason?: string, status?: string): HttpError {
  return new HttpError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' }, status ? { 'Job-Status': status } : {});
}

/**
 * The job `id` that `token` authenticates (GitLab's `authenticate_job!`): an unknown job or a token
 * that is not the job's → 403; a job no longer executing (`running`/`canceling`) → 403 `Job is not
 * processing on runner` with `Job-Status`: a job token is valid only while its job runs.
 */
export async function authenticateJob(db: Knex, id: number, token: string | undefined): Promise<Job> {
  const job = Number.isSafeInteger(id) ? await findJob(db, id) : null;
  if (!job || !token || !job.token_digest || !tokenMatches(token, job.token_digest)) throw jobForbidden();
  if (!(EXECUTING as readonly string[]).includes(job.status)) throw jobForbidden('Job is not processing on runner', job.status);
  return job;
}
