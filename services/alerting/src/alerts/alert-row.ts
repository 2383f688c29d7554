/** One `alerts` row. */
export interface AlertRow {
  id: string;
  project_id: number;
  iid: number;
  integration_id: string | null;
  title: string;
  description: string | null;
  severity: string;
  status: AlertStatus;
  started_at: Date;
  ended_at: Date | null;
  event_count: number;
  fingerprint: string | null;
  monitoring_tool: string | null;
  service: string | null;
  hosts: string[];
  environment: string | null;
  payload: Record<string, unknown>;
  details: Record<string, unknown>;
  incident_markdown: string | null;
  issue_iid: number | null;
  assignee_ids: number[];
  created_at: Date;
  updated_at: Date;
}

/** GitLab's alert statuses. */
export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** An alert as domain code sees it. */
export interface Alert {
  id: number;
  projectId: number;
  iid: number;
  title: string;
  description: string | null;
  severity: string;
  status: AlertStatus;
  startedAt: Date;
  endedAt: Date | null;
  eventCount: number;
  fingerprint: string | null;
  monitoringTool: string | null;
  service: string | null;
  hosts: string[];
  environment: string | null;
  details: Record<string, unknown>;
  incidentMarkdown: string | null;
  issueIid: number | null;
  assigneeIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

/** Maps a row once to the domain type. */
export function alertFromRow(r: AlertRow): Alert {
  return {
    id: Number(r.id), projectId: r.project_id, iid: r.iid, title: r.title, description: r.description, severity: r.severity, status: r.status,
    startedAt: r.started_at, endedAt: r.ended_at, eventCount: r.event_count, fingerprint: r.fingerprint, monitoringTool: r.monitoring_tool,
    service: r.service, hosts: r.hosts, environment: r.environment, details: r.details, incidentMarkdown: r.incident_markdown,
    issueIid: r.issue_iid, assigneeIds: r.assignee_ids, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}
