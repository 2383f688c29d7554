import { consumeOnce } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { enqueueDeliveries } from './delivery-worker';
import { HOOK_EVENT_PATTERNS } from './hook-events';

/** The consumer name recorded in the inbox (and the queue name without a test prefix). */
export const HOOKS_CONSUMER = 'identity.hooks';

/** Queues group hook deliveries for the events hooks subscribe to, each event once. */
export function hooksConsumer(deps: ServiceDeps, publicUrl: string): Consumer {
  return {
    queue: HOOKS_CONSUMER,
    patterns: HOOK_EVENT_PATTERNS,
    handler: async (event) => {
      await consumeOnce(deps.db, HOOKS_CONSUMER, event, async (trx) => {
        await enqueueDeliveries(trx, event, publicUrl);
      });
    },
  };
}
