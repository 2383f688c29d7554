import type { Knex } from 'knex';
import { AlertEvents, emitAlertEvent } from '../events/alert-events';
import type { AlertInput } from '../payload';
import { settingsOf } from '../settings/settings-store';
import type { Alert } from './alert-row';
import { giveBackIid, insertAlert, registerEvent, resolveOpen, takeIid } from './alert-store';

/** What one alert of a payload did: opened an alert, counted a repeat, resolved one, or matched nothing to resolve. */
export type Outcome = { kind: 'created' | 'repeated' | 'resolved'; alert: Alert } | { kind: 'unmatched' };

/**
 * Applies one alert to the project as the spec's behaviour table says: a resolving payload resolves
 * the unresolved alert with its fingerprint (announcing `alerting.alert.resolved`) or matches
 * nothing; otherwise a repeat of an unresolved alert counts one more event, and anything else opens
 * a new alert (announcing `alerting.alert.created`). Creation takes the project's next iid, which
 * locks its counter, and looks for the unresolved alert again under that lock, so concurrent posts
 * of one new fingerprint make one alert, count every post and leave no gap in the iids.
 */
export async function processAlert(db: Knex, projectId: number, integrationId: number | null, input: AlertInput): Promise<Outcome> {
  if (input.resolving) return resolve(db, projectId, input);
  const repeated = await registerEvent(db, projectId, input.fingerprint);
  if (repeated) return { kind: 'repeated', alert: repeated };
  const settings = await settingsOf(db, projectId);
  return db.transaction(async (trx) => {
    const iid = await takeIid(trx, projectId);
    const raced = await registerEvent(trx, projectId, input.fingerprint);
    if (raced) {
      await giveBackIid(trx, projectId);
      return { kind: 'repeated', alert: raced } as Outcome;
    }
    const alert = await insertAlert(trx, projectId, iid, integrationId, input);
    await emitAlertEvent(trx, AlertEvents.created, alert, settings);
    return { kind: 'created', alert } as Outcome;
  });
}

async function resolve(db: Knex, projectId: number, input: AlertInput): Promise<Outcome> {
  return db.transaction(async (trx) => {
    const alert = await resolveOpen(trx, projectId, input.fingerprint, input.endedAt ?? new Date());
    if (!alert) return { kind: 'unmatched' } as Outcome;
    await emitAlertEvent(trx, AlertEvents.resolved, alert, await settingsOf(trx, projectId));
    return { kind: 'resolved', alert } as Outcome;
  });
}
