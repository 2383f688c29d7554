import { int, type Schema } from '@anvil/config';

/** Env vars the alerting service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** Postgres connections per process (budget: README's Database section). */
  DB_POOL_MAX: int(4, 1, 100),
  /** Notify requests accepted per project per minute; 0 (the default, as GitLab) turns the limit off. */
  ALERT_NOTIFY_LIMIT: int(0, 0),
} satisfies Schema;
