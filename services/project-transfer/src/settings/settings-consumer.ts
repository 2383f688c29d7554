import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { SettingsEvents, type SettingsEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { liveSettingsFor } from './live-settings';

/** The queue name (without a test prefix) before this process's own suffix. */
export const SETTINGS_CONSUMER = 'project-transfer.settings';

/**
 * Follows the instance settings project-transfer applies (import and export sizes, the transfer rate
 * limits, local requests) without a restart. A queue for this process alone: every replica holds the
 * values in memory, so every replica must hear every change; each stores them too.
 */
export function settingsConsumer(deps: ServiceDeps): Consumer {
  const settings = liveSettingsFor(deps);
  return {
    queue: `${SETTINGS_CONSUMER}.${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`,
    patterns: [SettingsEvents.updated],
    options: { transient: true },
    handler: async (event) => {
      await settings.apply(deps.db, (event.data as SettingsEventV1).settings ?? {});
    },
  };
}
