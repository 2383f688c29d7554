import type { Knex } from 'knex';
import { AlertEvents, emitAlertEvent } from '../events/alert-events';
import type { AlertInput } from '../payload';
import { settingsOf } from '../settings/settings-store';
import type { Alert } from './alert-row';
import { insertAlert, lockIidCounter, registerEvent, resolveOpen, setIidCounter } from './alert-store';

/** What one alert of a payload did: opened an alert, counted a repeat, resolved one, or matched nothing to resolve. */
export type Outcome = { kind: 'created' | 'repeated' | 'resolved'; alert: Alert } | { kind: 'unmatched' };

/**
 * Applies one alert to the project as the spec's behaviour table says: a resolving payload resolves
 * the unresolved alert with its fingerprint (announcing `alerting.alert.resolved`) or matches
 * nothing; otherwise a repeat of an unresolved alert counts one more event, and anything else opens
 * a new alert (announcing `alerting.alert.created`). Creation holds the project's iid counter
 * lock and looks for the unresolved alert again under it, so concurrent posts of one new
 * fingerprint make one alert and count every post.
 */
export async function processAlert(db: Knex, projectId: number, integrationId: number | null, input: AlertInput): Promise<Outcome> {
  if (input.resolving) return resolve(db, projectId, input);
  const repeated = await registerEvent(db, projectId, input.fingerprint);
  if (repeated) return { kind: 'repeated', alert: repeated };
  return db.transaction(async (trx) => {
    const last = await lockIidCounter(trx, projectId);
    const raced = await registerEvent(trx, projectId, input.fingerprint);
    if (raced) return { kind: 'repeated', alert: raced } as Outcome;
    const alert = await insertAlert(trx, projectId, last + 1, integrationId, input);
    await setIidCounter(trx, projectId, last + 1);
    await emitAlertEvent(trx, AlertEvents.created, alert, await settingsOf(trx, projectId));
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
