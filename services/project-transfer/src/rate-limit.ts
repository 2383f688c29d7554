import { TooManyRequestsError } from '@anvil/http';

/** The window GitLab's application rate limits count in (per 1 minute). */
const WINDOW_MS = 60_000;

/**
 * One of GitLab's application rate limits: at most `limit` hits per key per fixed one-minute window,
 * 0 disabling it. Counts live in this process, so with several replicas each counts on its own.
 */
export class RateLimiter {
  private readonly counts = new Map<string, { windowStart: number; n: number }>();

  constructor(private readonly limit: number, private readonly now: () => number = Date.now) {}

  /** Counts one hit for `key`; over the limit → 429 with GitLab's body and `Retry-After`. */
  hit(key: string): void {
    if (this.limit <= 0) return;
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    const entry = this.counts.get(key);
    if (!entry || entry.windowStart !== windowStart) {
      if (this.counts.size > 10_000) this.counts.clear();
      this.counts.set(key, { windowStart, n: 1 });
      return;
    }
    entry.n += 1;
    if (entry.n > this.limit) throw new TooManyRequestsError(WINDOW_MS / 1000);
  }
}
