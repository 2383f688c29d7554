import { NotifyRefusal } from '../payload';

/** The window the limit counts in: one minute, as GitLab's application rate limits. */
const WINDOW_MS = 60_000;

/**
 * The per-project notify limit: at most `limit` accepted-key notify requests per project per fixed
 * one-minute window, 0 turning it off (the default, as GitLab has none). Counts live in this
 * process, so each replica counts on its own.
 */
export class NotifyLimiter {
  private readonly counts = new Map<number, { windowStart: number; n: number }>();

  constructor(private readonly limit: number, private readonly now: () => number = Date.now) {}

  /** Counts one request for the project; over the limit → 429 with `Retry-After` (seconds to the next window). */
  hit(projectId: number): void {
    if (this.limit <= 0) return;
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    const entry = this.counts.get(projectId);
    if (!entry || entry.windowStart !== windowStart) {
      if (this.counts.size > 10_000) this.counts.clear();
      this.counts.set(projectId, { windowStart, n: 1 });
      return;
    }
    entry.n += 1;
    if (entry.n > this.limit) throw new NotifyRefusal(429, { 'Retry-After': String(Math.ceil((windowStart + WINDOW_MS - now) / 1000)) });
  }
}
