import { int, type Schema } from '@anvil/config';

/** Env vars the work-items service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** How long list totals (X-Total) are reused while no write happened in this process (ms); 0 disables. */
  LIST_CACHE_TTL_MS: int(60_000, 0),
  /** How long rendered list and single-issue responses are reused while no write happened in this process (ms); 0 disables. */
  RESPONSE_CACHE_TTL_MS: int(5_000, 0),
  /** GitLab's `notes_create` limit: note creations per user per minute; 0 disables it. */
  NOTES_CREATE_LIMIT: int(0, 0),
} satisfies Schema;
