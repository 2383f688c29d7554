import { TooManyRequestsError } from '@anvil/http';

/** The window GitLab's `notes_create` limit counts in (`ApplicationRateLimiter`: per 1 minute). */
const WINDOW_MS = 60_000;

/**
 * GitLab's `notes_create` application rate limit: at most `limit` note creations per user per
 * fixed one-minute window, 0 disabling it. Counts live in this process, so with several replicas
 * each counts on its own. The limit starts from the environment and follows the instance setting
 * (`setLimit`, on each `identity.settings.updated`).
 */
export class NotesCreateLimiter {
  private readonly counts = new Map<number, { windowStart: number; n: number }>();

  constructor(private limit: number, private readonly now: () => number = Date.now) {}

  /** Changes the limit from now on (counts of the current window are kept). */
  setLimit(limit: number): void {
    this.limit = limit;
  }

  /** Counts one creation by `userId`; over the limit → 429 with GitLab's body and `Retry-After` (the window, as GitLab's). */
  hit(userId: number): void {
    if (this.limit <= 0) return;
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    const entry = this.counts.get(userId);
    if (!entry || entry.windowStart !== windowStart) {
      if (this.counts.size > 10_000) this.counts.clear();
      this.counts.set(userId, { windowStart, n: 1 });
      return;
    }
    entry.n += 1;
    if (entry.n > this.limit) throw new TooManyRequestsError(WINDOW_MS / 1000);
  }
}

const limiters = new WeakMap<object, NotesCreateLimiter>();

/** The one limiter of a running service (its app and its settings consumer share it). */
export function notesLimiterFor(deps: { config: Record<string, unknown> }): NotesCreateLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new NotesCreateLimiter(Number(deps.config.NOTES_CREATE_LIMIT ?? 0));
    limiters.set(deps, limiter);
  }
  return limiter;
}
