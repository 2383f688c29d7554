import type { JobWhen } from '../ci-config/types';
import type { Status } from './status';

/** One row of `jobs`, as Postgres returns it. */
export interface JobRow {
  id: number;
  pipeline_id: number;
  project_id: number;
  type: 'build' | 'bridge';
  name: string;
  stage: string;
  stage_idx: number;
  status: Status;
  when: JobWhen;
  allow_failure: boolean;
  allow_failure_exit_codes: number[];
  needs: { job: string; artifacts: boolean; optional: boolean }[] | null;
  options: Record<string, unknown>;
  variables: Record<string, string>;
  job_variables: { key: string; value: string }[];
  tags: string[];
  timeout: number | null;
  start_in: number | null;
  retried: boolean;
  retries: number;
  user_id: number | null;
  coverage: string | null;
  runner_id: number | null;
  token_digest: string | null;
  cancel_gracefully: boolean;
  failure_reason: string | null;
  exit_code: number | null;
  created_at: Date;
  updated_at: Date;
  queued_at: Date | null;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  erased_at: Date | null;
}

/** A job (GitLab's Ci::Build); the row is kept as it is: its fields are GitLab's names. */
export type Job = JobRow;

/** The columns a new job is inserted with (the rest take their defaults). */
export type NewJob = Pick<JobRow, 'pipeline_id' | 'project_id' | 'name' | 'stage' | 'stage_idx' | 'when' | 'allow_failure' | 'allow_failure_exit_codes' | 'tags' | 'timeout' | 'start_in' | 'user_id'> & {
  type?: 'build' | 'bridge';
  needs: JobRow['needs'];
  options: Record<string, unknown>;
  variables: Record<string, string>;
  retries?: number;
};

/** Seconds between two instants (float), or null when either is missing. */
export function seconds(from: Date | null, to: Date | null): number | null {
  if (!from || !to) return null;
  return (to.getTime() - from.getTime()) / 1000;
}
