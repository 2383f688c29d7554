import type { Db } from '@anvil/db';
import type { Knex } from 'knex';
import type { AlertInput } from '../payload';
import { Alert, alertFromRow, AlertRow } from './alert-row';

/** One alert for `applyInOrder`, with the time it arrived. */
export interface AppliedAlert {
  projectId: number;
  integrationId: number | null;
  input: AlertInput;
  now: Date;
}

/**
 * Applies alerts in order with the `alerts_apply` function (one statement; see its migration) and
 * reads the alerts they touched (a second one), answering what each did.
 */
export async function applyInOrder(trx: Knex.Transaction, alerts: AppliedAlert[]): Promise<({ kind: 'created' | 'repeated' | 'resolved'; alert: Alert } | { kind: 'unmatched' })[]> {
  if (!alerts.length) return [];
  const inputs = alerts.map(({ projectId, integrationId, input: a, now }) => ({
    project_id: projectId, integration_id: integrationId, resolving: a.resolving, ended_at: a.endedAt ?? now, now, fingerprint: a.fingerprint,
    title: a.title, description: a.description, severity: a.severity, started_at: a.startedAt, monitoring_tool: a.monitoringTool, service: a.service,
    hosts: a.hosts, environment: a.environment, payload: a.payload, details: a.details, incident_markdown: a.incidentMarkdown,
  }));
  const { rows } = await trx.raw('SELECT ord, kind, alert_id FROM alerts_apply(?::jsonb) ORDER BY ord', [JSON.stringify(inputs)]);
  const applied = rows as { ord: number; kind: 'created' | 'repeated' | 'resolved' | 'unmatched'; alert_id: string | null }[];
  const ids = [...new Set(applied.flatMap((r) => (r.alert_id === null ? [] : [r.alert_id])))];
  const byId = new Map((ids.length ? await trx<AlertRow>('alerts').whereIn('id', ids) : []).map((r) => [String(r.id), alertFromRow(r as AlertRow)]));
  return applied.map((r) => (r.kind === 'unmatched' || r.alert_id === null ? { kind: 'unmatched' as const } : { kind: r.kind, alert: byId.get(String(r.alert_id))! }));
}

/** One alert of the project by iid. */
export async function findAlert(db: Db, projectId: number, iid: number): Promise<Alert | undefined> {
  const row = await db<AlertRow>('alerts').where({ project_id: projectId, iid }).first();
  return row && alertFromRow(row);
}

/** Changes an alert's columns (and `updated_at`). */
export async function updateAlertRow(db: Db, id: number, values: Partial<AlertRow>): Promise<Alert> {
  const [row] = await db<AlertRow>('alerts').where({ id: String(id) }).update({ ...values, updated_at: new Date() }).returning('*');
  return alertFromRow(row as AlertRow);
}
