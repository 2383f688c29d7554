import type { Db } from '@anvil/db';

/** A project's alert settings (GitLab's incident management settings). */
export interface AlertSettings {
  createIssue: boolean;
  autoCloseIncident: boolean;
  sendEmail: boolean;
  /** Who last saved them (the author of incidents opened from alerts). */
  updatedById: number | null;
}

/** GitLab's defaults: no incident, auto-close on, no e-mail. */
export const DEFAULT_SETTINGS: AlertSettings = { createIssue: false, autoCloseIncident: true, sendEmail: false, updatedById: null };

interface SettingsRow {
  project_id: number;
  create_issue: boolean;
  auto_close_incident: boolean;
  send_email: boolean;
  updated_by_id: number | null;
}

/** The project's settings, or the defaults when never saved. */
export async function settingsOf(db: Db, projectId: number): Promise<AlertSettings> {
  const row = await db<SettingsRow>('alert_settings').where({ project_id: projectId }).first();
  if (!row) return DEFAULT_SETTINGS;
  return { createIssue: row.create_issue, autoCloseIncident: row.auto_close_incident, sendEmail: row.send_email, updatedById: row.updated_by_id };
}

/** Saves the given settings over the current ones. */
export async function saveSettings(db: Db, projectId: number, changes: Partial<Omit<AlertSettings, 'updatedById'>>, userId: number): Promise<AlertSettings> {
  const current = await settingsOf(db, projectId);
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)), updatedById: userId };
  await db('alert_settings')
    .insert({ project_id: projectId, create_issue: next.createIssue, auto_close_incident: next.autoCloseIncident, send_email: next.sendEmail, updated_by_id: userId, updated_at: new Date() })
    .onConflict('project_id')
    .merge();
  return next;
}
