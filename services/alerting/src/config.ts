import { int, type Schema } from '@anvil/config';

/** Env vars the alerting service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** Notify requests accepted per project per minute; 0 (the default, as GitLab) turns the limit off. */
  ALERT_NOTIFY_LIMIT: int(0, 0),
} satisfies Schema;
