import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Consumer } from '@anvil/runtime';
import { bumpGeneration } from '../db/freshness';

/**
 * Every replica's cached counts and responses die when any replica (or identity) changes data:
 * a transient queue of this process alone hears `work-items.#` and `identity.#` and moves the data
 * generation. Writes through this process already move it; this covers the other replicas.
 */
export function cacheInvalidationConsumer(): Consumer {
  return {
    queue: `work-items.cache.${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`,
    patterns: ['work-items.#', 'identity.#'],
    handler: async () => bumpGeneration(),
    options: { transient: true, prefetch: 64 },
  };
}
