import type { Knex } from 'knex';
import { SharedThrottle } from '@anvil/http';
import { NotifyRefusal } from '../payload';

/** The window the limit counts in: one minute, as GitLab's application rate limits. */
const WINDOW_SECONDS = 60;

/**
 * The per-project notify limit: at most `limit` accepted-key notify requests per project per
 * one-minute window, 0 turning it off (the default, as GitLab has none). Counts live in the service's
 * schema (`SharedThrottle`, its table created on first use), so every replica counts together.
 */
export class NotifyLimiter {
  private throttle?: Promise<SharedThrottle | null>;

  constructor(
    private readonly limit: number,
    private readonly db: Knex,
    private readonly schema: string,
  ) {}

  /** Counts one request for the project; over the limit → 429 with `Retry-After` (seconds to the next window). */
  async hit(projectId: number): Promise<void> {
    if (this.limit <= 0) return;
    this.throttle ??= SharedThrottle.create(this.db, { name: 'alert_notify', limit: this.limit, periodSeconds: WINDOW_SECONDS }, this.schema).catch(() => {
      // the table could not be created now: no limit for this request, another try on the next
      this.throttle = undefined;
      return null;
    });
    const over = await (await this.throttle)?.consume(String(projectId));
    if (over) throw new NotifyRefusal(429, { 'Retry-After': String(over.retryAfter) });
  }
}
