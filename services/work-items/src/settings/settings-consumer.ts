import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { SettingsEvents, SettingsEventV1 } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { notesLimiterFor } from '../notes/rate-limit';

/** The queue name (without a test prefix) before this process's own suffix. */
export const SETTINGS_CONSUMER = 'work-items.settings';

/**
 * Follows the instance settings work-items applies (`notes_create_limit`) without a restart. A
 * queue for this process alone: every replica holds its own limit (the counts are shared), so every replica must hear
 * every change. Applying a value twice is harmless.
 */
export function settingsConsumer(deps: ServiceDeps): Consumer {
  const limiter = notesLimiterFor(deps);
  return {
    queue: `${SETTINGS_CONSUMER}.${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`,
    patterns: [SettingsEvents.updated],
    options: { transient: true },
    handler: async (event) => {
      const limit = (event.data as SettingsEventV1).settings.notes_create_limit;
      if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 0) limiter.setLimit(limit);
    },
  };
}
