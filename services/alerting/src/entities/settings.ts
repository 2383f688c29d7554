import type { AlertSettings } from '../settings/settings-store';

/** A project's alert settings as the settings API shows them. */
export function toAlertSettings(s: AlertSettings): Record<string, boolean> {
  return { create_issue: s.createIssue, auto_close_incident: s.autoCloseIncident, send_email: s.sendEmail };
}
