import { TooManyRequestsError } from '@anvil/http';

/** The window GitLab's `notes_create` limit counts in (`ApplicationRateLimiter`: per 1 minute). */
const WINDOW_MS = 60_000;

/**
 * GitLab's `notes_create` application rate limit: at most `limit` note creations per user per
 * fixed one-minute window, 0 disabling it. Counts live in this process, so with several replicas
 * each counts on its own.
 */
export class NotesCreateLimiter {
  private readonly counts = new Map<number, { windowStart: number; n: number }>();

  constructor(private readonly limit: number, private readonly now: () => number = Date.now) {}

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
