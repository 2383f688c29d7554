import { formatDuration } from '../time-tracking/duration';

/** GitLab's `IssuableTimeStats`. */
export interface TimeStats {
  time_estimate: number;
  total_time_spent: number;
  human_time_estimate: string | null;
  human_total_time_spent: string | null;
}

/** Serialises an issuable's estimate and spent time (seconds) with GitLab's human forms. */
export function toTimeStats(t: { timeEstimate: number; totalTimeSpent: number }): TimeStats {
  return {
    time_estimate: t.timeEstimate,
    total_time_spent: t.totalTimeSpent,
    human_time_estimate: formatDuration(t.timeEstimate),
    human_total_time_spent: formatDuration(t.totalTimeSpent),
  };
}
