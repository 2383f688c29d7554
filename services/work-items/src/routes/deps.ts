import type { Knex } from 'knex';
import type { GenerationCache } from '../db/freshness';
import type { ResponseCache } from './response-cache';

/** What route modules need: the service's database (bound to its schema) and the read caches. */
export interface RouteDeps {
  db: Knex;
  /** List totals (X-Total), per query, for the data generation. */
  counts: GenerationCache<number>;
  /** Rendered list and single-issue responses, per caller and URL, for the data generation. */
  responses: ResponseCache;
}
