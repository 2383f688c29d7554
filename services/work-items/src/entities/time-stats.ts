import { formatDuration } from '../time-tracking/duration';

/** GitLab's `IssuableTimeStats`. */
export interface TimeStats {
  time_estimate: number;
  total_time_spent: number;
  human_time_estimate: string | null;
  human_total_time_spent: string | null;
}

/** Serialises an issuable's estimate and spent time (seconds) with GitLab's human forms. */
export function toTimeStats(row: { time_estimate: number; total_time_spent: number }): TimeStats {
  return {
    time_estimate: row.time_estimate,
    total_time_spent: row.total_time_spent,
    human_time_estimate: formatDuration(row.time_estimate),
    human_total_time_spent: formatDuration(row.total_time_spent),
  };
}
