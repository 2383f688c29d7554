import type { Router } from 'express';
import type { Knex } from 'knex';
import { ctx, p, paginate, params } from '@anvil/http';
import { ADMIN_ALERTING, READ_ALERTS, requireLevel } from '../access/project';
import { ALERT_STATUSES, alertFromRow, AlertRow } from '../alerts/alert-row';
import { loadAlert, updateAlert } from '../alerts/alert-service';
import { ALERT_SORTS, AlertsFinder } from '../alerts/alerts-finder';
import { toAlert } from '../entities/alert';
import { toAlertSettings } from '../entities/settings';
import { saveSettings, settingsOf } from '../settings/settings-store';

const BASE = '/projects/:id/alert_management';
const listParams = params({ status: p.enum(ALERT_STATUSES), search: p.string(), sort: p.enum(ALERT_SORTS) });
const iidParam = params({ alert_iid: p.integer().required() });
const updateParams = params(
  { alert_iid: p.integer().required(), status: p.enum(ALERT_STATUSES), assignee_ids: p.array(p.integer()) },
  { atLeastOneOf: [['status', 'assignee_ids']] },
);
const settingsParams = params(
  { create_issue: p.boolean(), auto_close_incident: p.boolean(), send_email: p.boolean() },
  { atLeastOneOf: [['create_issue', 'auto_close_incident', 'send_email']] },
);

/** The alerts and alert settings API (GitLab serves them over GraphQL; these paths are Anvil's). */
export function mountAlerts(router: Router, db: Knex): void {
  // GET /projects/:id/alert_management/alerts (GraphQL project.alertManagementAlerts)
  router.get(`${BASE}/alerts`, async (req, res) => {
    const { project } = requireLevel(ctx(req), READ_ALERTS);
    const page = await paginate<AlertRow>(req, new AlertsFinder(db, project.id, listParams.parse(req)).execute());
    res.set(page.headers).json(page.items.map((r) => toAlert(alertFromRow(r))));
  });
  // GET /projects/:id/alert_management/alerts/:alert_iid (GraphQL project.alertManagementAlert)
  router.get(`${BASE}/alerts/:alert_iid`, async (req, res) => {
    const { project } = requireLevel(ctx(req), READ_ALERTS);
    res.json(toAlert(await loadAlert(db, project.id, iidParam.parse(req).alert_iid)));
  });
  // PUT /projects/:id/alert_management/alerts/:alert_iid (GraphQL updateAlertStatus, alertSetAssignees)
  router.put(`${BASE}/alerts/:alert_iid`, async (req, res) => {
    const { project } = requireLevel(ctx(req), READ_ALERTS);
    const input = updateParams.parse(req);
    const alert = await loadAlert(db, project.id, input.alert_iid);
    res.json(toAlert(await updateAlert(db, alert, { status: input.status, assigneeIds: input.assignee_ids })));
  });
  // GET /projects/:id/alert_management/settings (project incident management settings)
  router.get(`${BASE}/settings`, async (req, res) => {
    const { project } = requireLevel(ctx(req), ADMIN_ALERTING);
    res.json(toAlertSettings(await settingsOf(db, project.id)));
  });
  // PUT /projects/:id/alert_management/settings (PATCH /:namespace/:project/-/settings/operations)
  router.put(`${BASE}/settings`, async (req, res) => {
    const { user, project } = requireLevel(ctx(req), ADMIN_ALERTING);
    const input = settingsParams.parse(req);
    res.json(toAlertSettings(await saveSettings(db, project.id, { createIssue: input.create_issue, autoCloseIncident: input.auto_close_incident, sendEmail: input.send_email }, user.id)));
  });
}
