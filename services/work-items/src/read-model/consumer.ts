import { consumeOnce } from '@anvil/events';
import type { Consumer, ServiceDeps } from '@anvil/runtime';
import { applyIdentityEvent } from './apply';

/** The consumer name recorded in the inbox (and the queue name without a test prefix). */
export const IDENTITY_CONSUMER = 'work-items.identity';

/** Keeps the users/groups/projects/memberships read models in step with identity, each event applied once. */
export function identityConsumer(deps: ServiceDeps): Consumer {
  return {
    queue: IDENTITY_CONSUMER,
    patterns: ['identity.#'],
    handler: async (event) => {
      await consumeOnce(deps.db, IDENTITY_CONSUMER, event, (trx) => applyIdentityEvent(trx, event));
    },
  };
}
