import type { Knex } from 'knex';
import { SharedThrottle, TooManyRequestsError } from '@anvil/http';

/** The window GitLab's `notes_create` limit counts in (`ApplicationRateLimiter`: per 1 minute). */
const WINDOW_SECONDS = 60;

/**
 * GitLab's `notes_create` application rate limit: at most `limit` note creations per user per
 * one-minute window, 0 disabling it. Counts live in the service's schema (`SharedThrottle`, its table
 * created on first use), so every replica counts together. The limit starts from the environment and
 * follows the instance setting (`setLimit`, on each `identity.settings.updated`); a changed limit
 * applies to the counts of the current window.
 */
export class NotesCreateLimiter {
  private throttle?: Promise<SharedThrottle | null>;

  constructor(
    private limit: number,
    private readonly db: Knex,
    private readonly schema: string,
  ) {}

  /** Changes the limit from now on (counts of the current window are kept). */
  setLimit(limit: number): void {
    if (limit === this.limit) return;
    this.limit = limit;
    this.throttle = undefined;
  }

  /** Counts one creation by `userId`; over the limit → 429 with GitLab's body and `Retry-After` (the window, as GitLab's). */
  async hit(userId: number): Promise<void> {
    const limit = this.limit;
    if (limit <= 0) return;
    const throttle = (this.throttle ??= SharedThrottle.create(this.db, { name: 'notes_create', limit, periodSeconds: WINDOW_SECONDS }, this.schema).catch(() => {
      // the table could not be created now: no limit for this request, another try on the next
      if (this.throttle === throttle) this.throttle = undefined;
      return null;
    }));
    const over = await (await throttle)?.consume(String(userId));
    if (over) throw new TooManyRequestsError(WINDOW_SECONDS);
  }
}

const limiters = new WeakMap<object, NotesCreateLimiter>();

/** The one limiter of a running service (its app and its settings consumer share it). */
export function notesLimiterFor(deps: { config: Record<string, unknown>; db: Knex; schema: string }): NotesCreateLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new NotesCreateLimiter(Number(deps.config.NOTES_CREATE_LIMIT ?? 0), deps.db, deps.schema);
    limiters.set(deps, limiter);
  }
  return limiter;
}
