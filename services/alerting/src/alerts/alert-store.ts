import type { Db } from '@anvil/db';
import type { Knex } from 'knex';
import type { AlertInput } from '../payload';
import { Alert, alertFromRow, AlertRow } from './alert-row';

/** Counts one more event on the project's unresolved alert with this fingerprint; undefined when there is none. */
export async function registerEvent(db: Db, projectId: number, fingerprint: string): Promise<Alert | undefined> {
  const rows: AlertRow[] = await db<AlertRow>('alerts')
    .where({ project_id: projectId, fingerprint })
    .whereNot('status', 'resolved')
    .update({ event_count: db.raw('event_count + 1'), updated_at: new Date() })
    .returning('*');
  return rows[0] && alertFromRow(rows[0]);
}

/** Resolves the project's unresolved alert with this fingerprint (ended at `endedAt`); undefined when there is none. */
export async function resolveOpen(db: Db, projectId: number, fingerprint: string, endedAt: Date): Promise<Alert | undefined> {
  const rows: AlertRow[] = await db<AlertRow>('alerts')
    .where({ project_id: projectId, fingerprint })
    .whereNot('status', 'resolved')
    .update({ status: 'resolved', ended_at: endedAt, updated_at: new Date() })
    .returning('*');
  return rows[0] && alertFromRow(rows[0]);
}

/**
 * Takes the project's next iid: moves its counter on and locks it until the transaction ends, so
 * creations in one project take turns.
 */
export async function takeIid(trx: Knex.Transaction, projectId: number): Promise<number> {
  const { rows } = await trx.raw(
    `INSERT INTO alert_iids (project_id, last_iid) VALUES (?, 1)
     ON CONFLICT (project_id) DO UPDATE SET last_iid = alert_iids.last_iid + 1 RETURNING last_iid`,
    [projectId],
  );
  return rows[0].last_iid;
}

/** Gives back the iid `takeIid` took in this transaction (nothing was created with it). */
export async function giveBackIid(trx: Knex.Transaction, projectId: number): Promise<void> {
  await trx('alert_iids').where({ project_id: projectId }).decrement('last_iid', 1);
}

/** Inserts a new triggered alert with one event. */
export async function insertAlert(trx: Knex.Transaction, projectId: number, iid: number, integrationId: number | null, a: AlertInput): Promise<Alert> {
  const [row] = await trx<AlertRow>('alerts')
    .insert({
      project_id: projectId, iid, integration_id: integrationId === null ? null : String(integrationId), title: a.title, description: a.description,
      severity: a.severity, status: 'triggered', started_at: a.startedAt, ended_at: null, event_count: 1, fingerprint: a.fingerprint,
      monitoring_tool: a.monitoringTool, service: a.service, hosts: a.hosts, environment: a.environment,
      payload: JSON.stringify(a.payload) as unknown as Record<string, unknown>, details: JSON.stringify(a.details) as unknown as Record<string, unknown>,
      incident_markdown: a.incidentMarkdown,
    })
    .returning('*');
  return alertFromRow(row as AlertRow);
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
