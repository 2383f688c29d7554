import type { Refusal } from './refusals';

interface Bucket {
  tokens: number;
  last: number;
  /** Requests seen in the current minute window (RateLimit-Observed). */
  observed: number;
  windowStart: number;
}

/**
 * A token bucket per key (user id, or IP for anonymous callers): `perMinute` capacity refilled
 * continuously. Refuses like GitLab's Rack::Attack throttles: 429, `Retry later`, RateLimit-* headers.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly perMinute: number) {
    this.perMs = perMinute / 60_000;
    this.timer = setInterval(() => this.prune(), 60_000);
    this.timer.unref();
  }

  /** Takes one token for `key`; returns the 429 refusal when there is none. */
  take(key: string, authenticated: boolean, now = Date.now()): Refusal | null {
    let b = this.buckets.get(key);
    if (!b) this.buckets.set(key, (b = { tokens: this.perMinute, last: now, observed: 0, windowStart: now }));
    b.tokens = Math.min(this.perMinute, b.tokens + (now - b.last) * this.perMs);
    b.last = now;
    if (now - b.windowStart >= 60_000) {
      b.windowStart = now;
      b.observed = 0;
    }
    b.observed++;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
    const reset = Math.ceil(now / 1000) + retryAfter;
    return {
      status: 429,
      text: true,
      body: 'Retry later\n',
      headers: {
        'Retry-After': String(retryAfter),
        'RateLimit-Name': authenticated ? 'throttle_authenticated_api' : 'throttle_unauthenticated_api',
        'RateLimit-Limit': String(this.perMinute),
        'RateLimit-Observed': String(b.observed),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(reset),
        'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(),
      },
    };
  }

  /** Forgets full buckets (idle keys). */
  private prune(now = Date.now()): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + (now - b.last) * this.perMs >= this.perMinute) this.buckets.delete(k);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
