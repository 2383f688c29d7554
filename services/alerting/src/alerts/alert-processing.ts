import type { Knex } from 'knex';
import { AlertEvents, alertEvents } from '../events/alert-events';
import type { AlertInput } from '../payload';
import type { AlertSettings } from '../settings/settings-store';
import type { Alert } from './alert-row';
import { applyInOrder } from './alert-store';

/** What one alert of a payload did: opened an alert, counted a repeat, resolved one, or matched nothing to resolve. */
export type Outcome = { kind: 'created' | 'repeated' | 'resolved'; alert: Alert } | { kind: 'unmatched' };

/** One alert to apply to a project, from an integration. */
export interface AlertApplication {
  projectId: number;
  integrationId: number | null;
  input: AlertInput;
}

/**
 * Applies alerts in order in the caller's transaction, as the spec's behaviour table says: a
 * resolving payload resolves the unresolved alert with its fingerprint (announcing
 * `alerting.alert.resolved`) or matches nothing; otherwise a repeat of an unresolved alert counts
 * one more event, and anything else opens a new alert (announcing `alerting.alert.created`).
 * Creation takes the project's next iid, which locks its counter, and looks for the unresolved
 * alert again under that lock, so concurrent posts of one new fingerprint make one alert, count
 * every post and leave no gap in the iids. A fixed number of statements whatever the number of
 * alerts: the alerts, their rows, the settings of each project with an event, the events.
 */
export async function applyAlerts(trx: Knex.Transaction, applications: AlertApplication[], settingsOf: (projectId: number) => Promise<AlertSettings>): Promise<Outcome[]> {
  const outcomes = await applyInOrder(trx, applications.map((a) => ({ projectId: a.projectId, integrationId: a.integrationId, input: a.input, now: new Date() })));
  const events: { type: (typeof AlertEvents)[keyof typeof AlertEvents]; alert: Alert; settings: AlertSettings }[] = [];
  for (const o of outcomes) {
    if (o.kind === 'created') {
      // the event tells the alert as it was opened, whatever later alerts of the batch did to it
      const opened = { ...o.alert, status: 'triggered' as const, endedAt: null, eventCount: 1, updatedAt: o.alert.createdAt };
      events.push({ type: AlertEvents.created, alert: opened, settings: await settingsOf(o.alert.projectId) });
    } else if (o.kind === 'resolved') events.push({ type: AlertEvents.resolved, alert: o.alert, settings: await settingsOf(o.alert.projectId) });
  }
  await alertEvents(trx, events);
  return outcomes;
}
