/**
 * GitLab's `detailed_status` (DetailedStatusEntity over Gitlab::Ci::Status::*).
 * See ../shared/reference/ci-config.md §12.
 */
import type { Status } from '../jobs/status';

type Core = [icon: string, text: string, label: string, group: string, favicon: string];

const CORE: Record<Status, Core> = {
  created: ['status_created', 'Created', 'created', 'created', 'favicon_status_created'],
  waiting_for_resource: ['status_pending', 'Waiting', 'waiting for resource', 'waiting-for-resource', 'favicon_status_pending'],
  preparing: ['status_preparing', 'Preparing', 'preparing', 'preparing', 'favicon_status_preparing'],
  waiting_for_callback: ['status_pending', 'Waiting', 'waiting for callback', 'waiting-for-callback', 'favicon_status_pending'],
  pending: ['status_pending', 'Pending', 'pending', 'pending', 'favicon_status_pending'],
  running: ['status_running', 'Running', 'running', 'running', 'favicon_status_running'],
  success: ['status_success', 'Passed', 'passed', 'success', 'favicon_status_success'],
  failed: ['status_failed', 'Failed', 'failed', 'failed', 'favicon_status_failed'],
  canceling: ['status_canceled', 'Canceling', 'canceling', 'canceling', 'favicon_status_canceled'],
  canceled: ['status_canceled', 'Canceled', 'canceled', 'canceled', 'favicon_status_canceled'],
  skipped: ['status_skipped', 'Skipped', 'skipped', 'skipped', 'favicon_status_skipped'],
  manual: ['status_manual', 'Manual', 'manual action', 'manual', 'favicon_status_manual'],
  scheduled: ['status_scheduled', 'Scheduled', 'scheduled', 'scheduled', 'favicon_status_scheduled'],
};

const PIPELINE: Partial<Record<Status, Core>> = {
  manual: ['status_manual', 'Blocked', 'waiting for manual action', 'manual', 'favicon_status_manual'],
  scheduled: ['status_scheduled', 'Delayed', 'waiting for delayed job', 'scheduled', 'favicon_status_scheduled'],
};

const WARNING: Core = ['status_warning', 'Warning', 'passed with warnings', 'success-with-warnings', 'favicon_status_success'];

/** The `detailed_status` object. */
export interface DetailedStatus {
  icon: string;
  text: string;
  label: string;
  group: string;
  tooltip: string;
  has_details: boolean;
  details_path: string;
  illustration: null;
  favicon: string;
}

/** Which status table applies and whether a success carries warnings. */
export interface StatusSubject {
  status: Status;
  kind: 'pipeline' | 'job';
  warnings: boolean;
}

function core(s: StatusSubject): Core {
  if (s.status === 'success' && s.warnings) return WARNING;
  return (s.kind === 'pipeline' ? PIPELINE[s.status] : undefined) ?? CORE[s.status];
}

/** The label GitLab shows for a status (`passed`, `passed with warnings`, …). */
export function statusLabel(s: StatusSubject): string {
  return core(s)[2];
}

/** `detailed_status` for a subject whose page is `detailsPath`; `hasDetails` when the caller may read it. */
export function detailedStatus(s: StatusSubject, detailsPath: string, hasDetails: boolean): DetailedStatus {
  const [icon, text, label, group, favicon] = core(s);
  return {
    icon,
    text,
    label,
    group,
    tooltip: label,
    has_details: hasDetails,
    details_path: detailsPath,
    illustration: null,
    favicon: `/assets/ci_favicons/${favicon}.png`,
  };
}
