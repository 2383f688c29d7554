import type { Knex } from 'knex';
import { isUniqueViolation } from '@anvil/db';
import { NotFoundError, ValidationError } from '@anvil/http';
import { AlertEvents, emitAlertEvent } from '../events/alert-events';
import { settingsOf } from '../settings/settings-store';
import type { Alert, AlertStatus } from './alert-row';
import { findAlert, updateAlertRow } from './alert-store';

/** The project's alert `iid`, else 404 `Alert Not Found`. */
export async function loadAlert(db: Knex, projectId: number, iid: number): Promise<Alert> {
  const alert = await findAlert(db, projectId, iid);
  if (!alert) throw new NotFoundError('Alert');
  return alert;
}

/**
 * Changes an alert's status and assignees (GitLab's `AlertManagement::Alerts::UpdateService`):
 * resolving sets `ended_at` (now) and announces `alerting.alert.resolved`, other changes
 * `alerting.alert.updated`; re-opening while another unresolved alert has its fingerprint → 400,
 * GitLab's validation message.
 */
export async function updateAlert(db: Knex, alert: Alert, input: { status?: AlertStatus; assigneeIds?: number[] }): Promise<Alert> {
  const values: Record<string, unknown> = {};
  if (input.assigneeIds) values.assignee_ids = [...new Set(input.assigneeIds)];
  if (input.status && input.status !== alert.status) {
    values.status = input.status;
    values.ended_at = input.status === 'resolved' ? new Date() : null;
  }
  if (!Object.keys(values).length) return alert;
  try {
    return await db.transaction(async (trx) => {
      const updated = await updateAlertRow(trx, alert.id, values);
      const type = values.status === 'resolved' ? AlertEvents.resolved : AlertEvents.updated;
      await emitAlertEvent(trx, type, updated, await settingsOf(trx, alert.projectId));
      return updated;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new ValidationError({ fingerprint: ['Cannot have multiple unresolved alerts'] });
    throw e;
  }
}
