import { int, type Schema } from '@anvil/config';

/** Env vars the work-items service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** Postgres connections per process (budget: README's Database section). */
  DB_POOL_MAX: int(6, 1, 100),
  /** GitLab's `notes_create` limit: note creations per user per minute; 0 disables it. */
  NOTES_CREATE_LIMIT: int(0, 0),
  /** Seconds between the heartbeats (`<service>.transfer.part.progressed`) this service publishes while it works on a part of an export or import. */
  TRANSFER_HEARTBEAT_SECONDS: int(60, 1),
} satisfies Schema;
