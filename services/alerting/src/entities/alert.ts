import type { Alert } from '../alerts/alert-row';

/** An alert as the alerts API shows it. */
export function toAlert(a: Alert): Record<string, unknown> {
  return {
    iid: a.iid,
    title: a.title,
    description: a.description,
    severity: a.severity,
    status: a.status,
    started_at: a.startedAt.toISOString(),
    ended_at: a.endedAt ? a.endedAt.toISOString() : null,
    event_count: a.eventCount,
    fingerprint: a.fingerprint,
    monitoring_tool: a.monitoringTool,
    service: a.service,
    hosts: a.hosts,
    environment: a.environment,
    details: a.details,
    issue_iid: a.issueIid,
    assignee_ids: a.assigneeIds,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

/** The notify answer's element (GitLab's `AlertManagement::AlertEntity`): exactly `iid` and `title`. */
export function toAlertSummary(a: { iid: number; title: string }): { iid: number; title: string } {
  return { iid: a.iid, title: a.title };
}
