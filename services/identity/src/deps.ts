import type { Knex } from 'knex';

/** What identity's domain services need: the database and the public base URL (for event data). */
export interface IdentityContext {
  db: Knex;
  /** The fleet's public URL (web_url in events; responses use the request's own base). */
  publicUrl: string;
}
