/**
 * CI statuses and GitLab's composite status (Gitlab::Ci::Status::Composite), pure.
 * See ../shared/reference/ci-config.md §10 and pipelines.md §1.
 */

/** Every status a job or pipeline can have (Ci::HasStatus::AVAILABLE_STATUSES). */
export const STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running',
  'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;
export type Status = (typeof STATUSES)[number];

/** Finished statuses (`scope=finished`). */
export const COMPLETED: readonly Status[] = ['success', 'failed', 'canceled', 'skipped'];
/** Statuses a job or pipeline cancel acts on (CANCELABLE_STATUSES). */
export const CANCELABLE: readonly Status[] = ['running', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'created', 'scheduled'];
/** Statuses a job cancel acts on: the cancelable ones and manual jobs. */
export const JOB_CANCELABLE: readonly Status[] = [...CANCELABLE, 'manual'];
/** Statuses from which a job may be retried. */
export const RETRYABLE: readonly Status[] = ['success', 'failed', 'canceled', 'canceling'];
/** Statuses in which a job holds a runner (its token authenticates). */
export const EXECUTING: readonly Status[] = ['running', 'canceling'];

/** One job as the composite sees it. */
export interface StatusInput {
  status: Status;
  allowFailure: boolean;
}

type Normalised = Status | 'success_with_warnings' | 'ignored';

function normalise(j: StatusInput): Normalised {
  if (j.allowFailure && (j.status === 'failed' || j.status === 'canceled')) return 'success_with_warnings';
  if (j.allowFailure && j.status === 'manual') return 'ignored';
  return j.status;
}

/**
 * The composite status of `jobs` (first matching rule wins); `dag` for the needs of one job.
 * An empty set is `success`, as in processing.
 */
export function compositeStatus(jobs: StatusInput[], dag = false): Status {
  const present = new Set(jobs.map(normalise));
  if (present.size === 0) return 'success';
  const only = (...xs: Normalised[]) => [...present].every((s) => xs.includes(s));
  const any = (...xs: Normalised[]) => xs.some((s) => present.has(s));
  if (dag && any('skipped', 'ignored')) return 'skipped';
  if (only('skipped', 'ignored')) return 'skipped';
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success';
  if (only('created', 'success_with_warnings', 'ignored')) return 'created';
  if (only('preparing', 'success_with_warnings', 'ignored')) return 'preparing';
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled';
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending';
  if (any('running', 'pending')) return 'running';
  for (const s of ['waiting_for_resource', 'waiting_for_callback', 'manual', 'scheduled', 'preparing'] as const) if (present.has(s)) return s;
  if (present.has('created')) return 'running';
  if (present.has('canceling')) return 'canceling';
  return 'failed';
}

/** Whether a successful set has a failed or canceled job allowed to fail ("passed with warnings"). */
export function hasWarnings(jobs: StatusInput[]): boolean {
  return jobs.some((j) => j.allowFailure && (j.status === 'failed' || j.status === 'canceled'));
}
