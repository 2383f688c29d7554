import type { Knex } from 'knex';

/** What route modules need: the service's database (bound to its schema). */
export interface RouteDeps {
  db: Knex;
}
