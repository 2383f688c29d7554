import type { Knex } from 'knex';
import { type AlertEventV1, emit, IncidentEvents, type IncidentEventV1 } from '@anvil/events';
import { emitIssueEvent, IssueEvents, issuePayload, PRODUCER } from '../events/issue-events';
import { setIssueState } from '../issues/issue-service';
import { findIssueById, insertIssue, nextInternalId } from '../issues/issue-store';
import { incidentDescription } from './incident-description';

/**
 * Opens the incident issue of a new alert when its project's settings asked for one (GitLab's
 * `IncidentManagement::ProcessAlertWorker`): `issue_type: incident`, the alert's title and
 * severity, its summary and incident markdown as description, authored by whoever saved the
 * settings. Announces `work-items.issue.created` and `work-items.incident.created` (which links
 * the alert back). At most one incident per alert.
 */
export async function openIncident(trx: Knex.Transaction, alert: AlertEventV1): Promise<void> {
  if (!alert.create_issue || alert.incident_author_id === null || alert.status === 'resolved' || alert.issue_iid !== null) return;
  const taken = await trx('alert_incidents').where({ alert_id: alert.id }).first();
  if (taken) return;
  const iid = await nextInternalId(trx, 'project', alert.project_id, 'issues');
  const issue = await insertIssue(trx, {
    project_id: alert.project_id, iid, title: alert.title, description: incidentDescription(alert), author_id: alert.incident_author_id,
    issue_type: 'incident', severity: alert.severity,
  });
  await trx('alert_incidents').insert({ alert_id: alert.id, project_id: alert.project_id, issue_id: issue.id });
  await emitIssueEvent(trx, IssueEvents.created, issuePayload(issue, { assigneeIds: [], labels: [], actorId: alert.incident_author_id }));
  const linked: IncidentEventV1 = { alert_id: alert.id, project_id: alert.project_id, issue_id: issue.id, issue_iid: issue.iid };
  await emit(trx, PRODUCER, IncidentEvents.created, linked);
}

/** Closes the incident a resolved alert opened, when the project's `auto_close_incident` is on and it is still open. */
export async function closeIncident(trx: Knex.Transaction, alert: AlertEventV1): Promise<void> {
  if (!alert.auto_close_incident) return;
  const link = await trx('alert_incidents').where({ alert_id: alert.id }).first();
  const issue = link && (await findIssueById(trx, link.issue_id));
  if (!issue || issue.state !== 'opened') return;
  await setIssueState(trx, issue, 'close', alert.incident_author_id ?? issue.authorId);
}
