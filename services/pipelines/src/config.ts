import { int, type Schema } from '@anvil/config';

/** Env vars the pipelines service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** Postgres connections per process (budget: README's Database section); one of them LISTENs for pending jobs. */
  DB_POOL_MAX: int(6, 1, 100),
  /** Largest file the Repository Files API commits, in bytes (larger: 413). CI sources are small. */
  REPOSITORY_MAX_FILE_BYTES: int(1024 * 1024, 1),
  /** How long `POST /jobs/request` holds a runner's request while no job comes (ms; Workhorse's long polling). */
  RUNNER_LONG_POLL_MS: int(50_000, 0, 250_000),
  /** Largest job log in bytes (GitLab's default `ci_jobs_trace_size_limit`: 100 MB). */
  JOB_TRACE_LIMIT_BYTES: int(100 * 1024 * 1024, 1),
  /** Seconds between the heartbeats (`<service>.transfer.part.progressed`) this service publishes while it works on a part of an export or import. */
  TRANSFER_HEARTBEAT_SECONDS: int(60, 1),
} satisfies Schema;
