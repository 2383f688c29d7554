import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { SettingsEvents, type SettingsEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { liveSettingsFor } from './live-settings';

/** The queue name (without a test prefix) before this process's own suffix. */
export const SETTINGS_CONSUMER = 'project-transfer.settings';

/** The queue every replica shares, durable: a change published while no process runs is stored when one starts. */
export const SETTINGS_STORE_CONSUMER = 'project-transfer.settings.store';

/** Applies one `identity.settings.updated` to this process and stores it. */
function applyEvent(deps: ServiceDeps): Consumer['handler'] {
  const settings = liveSettingsFor(deps);
  return async (event) => {
    const occurredAt = new Date(event.occurred_at);
    await settings.apply(deps.db, (event.data as SettingsEventV1).settings ?? {}, Number.isNaN(occurredAt.getTime()) ? new Date() : occurredAt);
  };
}

/**
 * Follows the instance settings project-transfer applies (import and export sizes, the transfer rate
 * limits, local requests) without a restart: a queue for this process alone, so every consuming
 * process applies every change at once, and one durable queue shared by the replicas, so a change is
 * stored even when it is published while none runs. Processes that consume nothing (`ROLE=api`) read
 * the stored values (`LiveSettings.fresh`).
 */
export function settingsConsumers(deps: ServiceDeps): Consumer[] {
  return [
    {
      queue: `${SETTINGS_CONSUMER}.${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`,
      patterns: [SettingsEvents.updated],
      options: { transient: true },
      handler: applyEvent(deps),
    },
    { queue: SETTINGS_STORE_CONSUMER, patterns: [SettingsEvents.updated], handler: applyEvent(deps) },
  ];
}
