import type { Knex } from 'knex';
import { AlertEvents, type AlertEventV1, emit } from '@anvil/events';
import type { Alert } from '../alerts/alert-row';
import type { AlertSettings } from '../settings/settings-store';

/** The producer name on every event this service publishes. */
export const PRODUCER = 'alerting';

export { AlertEvents };

/** The event payload of an alert with the project's incident settings. */
export function alertPayload(a: Alert, settings: AlertSettings): AlertEventV1 {
  return {
    id: a.id, iid: a.iid, project_id: a.projectId, title: a.title, description: a.description, severity: a.severity, status: a.status,
    started_at: a.startedAt.toISOString(), ended_at: a.endedAt ? a.endedAt.toISOString() : null, event_count: a.eventCount,
    fingerprint: a.fingerprint, monitoring_tool: a.monitoringTool, service: a.service, hosts: a.hosts, environment: a.environment,
    incident_markdown: a.incidentMarkdown, issue_iid: a.issueIid, create_issue: settings.createIssue, auto_close_incident: settings.autoCloseIncident,
    incident_author_id: settings.updatedById,
  };
}

/** Writes an alert event to the outbox in the caller's transaction. */
export async function emitAlertEvent(trx: Knex.Transaction, type: (typeof AlertEvents)[keyof typeof AlertEvents], a: Alert, settings: AlertSettings): Promise<void> {
  await emit(trx, PRODUCER, type, alertPayload(a, settings));
}
