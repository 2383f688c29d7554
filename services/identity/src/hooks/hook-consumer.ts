import { consumeOnce } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { DeliveryWorker, enqueueDeliveries } from './delivery-worker';
import { HOOK_EVENT_PATTERNS } from './hook-events';

/** The consumer name recorded in the inbox (and the queue name without a test prefix). */
export const HOOKS_CONSUMER = 'identity.hooks';

/** Queues group hook deliveries for the events hooks subscribe to, each event once, and wakes the worker. */
export function hooksConsumer(deps: ServiceDeps, publicUrl: string, worker: DeliveryWorker): Consumer {
  return {
    queue: HOOKS_CONSUMER,
    patterns: HOOK_EVENT_PATTERNS,
    handler: async (event) => {
      let queued = 0;
      await consumeOnce(deps.db, HOOKS_CONSUMER, event, async (trx) => {
        queued = await enqueueDeliveries(trx, event, publicUrl);
      });
      if (queued) worker.wake();
    },
  };
}
