import type { Knex } from 'knex';
import { SharedThrottle, TooManyRequestsError } from '@anvil/http';

/** The window GitLab's application rate limits count in (per 1 minute). */
const WINDOW_SECONDS = 60;

/**
 * One of GitLab's application rate limits (`project_export`, `project_download_export`,
 * `project_import`): at most `limit` hits per key per fixed one-minute window, 0 disabling it. Counts
 * live in the service's schema (`SharedThrottle`), so every replica counts together. The limit is
 * given on each hit (the instance setting in force); when it changes, the throttle is made again with
 * the same name and so keeps the window's counts.
 */
export class RateLimiter {
  private throttle?: { limit: number; made: Promise<SharedThrottle | null> };

  constructor(
    private readonly name: string,
    private readonly db: Knex,
    private readonly schema: string,
    /** Creations of throttles in one process, one after the other (their table creations would race). */
    private readonly queue: { tail: Promise<unknown> },
  ) {}

  /** Counts one hit for `key` under `limit`; over it → 429 with GitLab's body and `Retry-After` (the interval, as GitLab's `too_many_requests!`). */
  async hit(key: string, limit: number): Promise<void> {
    if (limit <= 0) return;
    let current = this.throttle;
    if (current?.limit !== limit) {
      const made = this.queue.tail.then(() => SharedThrottle.create(this.db, { name: this.name, limit, periodSeconds: WINDOW_SECONDS }, this.schema)).catch(() => {
        // the table could not be reached now: no limit for this request, another try on the next
        if (this.throttle?.made === made) this.throttle = undefined;
        return null;
      });
      this.queue.tail = made;
      current = this.throttle = { limit, made };
    }
    const over = await (await current.made)?.consume(key);
    if (over) throw new TooManyRequestsError(WINDOW_SECONDS);
  }
}

/** The three transfer limits of one service, sharing one creation queue. */
export function transferLimiters(db: Knex, schema: string): { exportLimiter: RateLimiter; downloadLimiter: RateLimiter; importLimiter: RateLimiter } {
  const queue = { tail: Promise.resolve() as Promise<unknown> };
  return {
    exportLimiter: new RateLimiter('project_export', db, schema, queue),
    downloadLimiter: new RateLimiter('project_download_export', db, schema, queue),
    importLimiter: new RateLimiter('project_import', db, schema, queue),
  };
}
