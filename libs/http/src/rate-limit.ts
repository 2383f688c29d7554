import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

/** One throttle as GitLab names it (`throttle_unauthenticated_api`, …): so many requests per period. */
export interface ThrottleSettings {
  name: string;
  limit: number;
  periodSeconds: number;
  /** Once over the limit, the key stays refused this long (Allow2Ban's `bantime`); default: until the period ends. */
  banSeconds?: number;
}

/** What a refused request is told: GitLab's Rack::Attack headers (`Retry-After`, `RateLimit-*`). */
export interface Throttled {
  name: string;
  retryAfter: number;
  headers: Record<string, string>;
}

/** The limiter's record of keys refused from memory (not in its typings). */
interface InMemoryBlocks {
  getInMemoryBlockMsBeforeExpire(rlKey: string): number;
}

/** The table every replica's limiters share (rows keyed `<throttle name>:<key>`). */
export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * A fixed-window limiter shared by every replica through a Postgres table (`rate-limiter-flexible`).
 * A key over its limit is then refused from this process's memory until its window ends, without a
 * query; when Postgres fails, a per-process limiter with the same settings answers instead, so a
 * database hiccup never fails a request.
 */
export class SharedThrottle {
  private constructor(
    readonly settings: ThrottleSettings,
    private readonly limiter: RateLimiterPostgres,
  ) {}

  /**
   * A throttle on `db` (a knex whose search_path is the schema holding the table). The table is created
   * when missing; create throttles one after the other (their creations would race).
   */
  static async create(db: Knex, settings: ThrottleSettings, schema?: string): Promise<SharedThrottle> {
    const base = { keyPrefix: settings.name, points: settings.limit, duration: settings.periodSeconds, blockDuration: settings.banSeconds ?? 0 };
    let limiter!: RateLimiterPostgres;
    await new Promise<void>((resolve, reject) => {
      limiter = new RateLimiterPostgres(
        {
          ...base,
          storeClient: db,
          storeType: 'knex',
          tableName: RATE_LIMIT_TABLE,
          schemaName: schema,
          clearExpiredByTimeout: true,
          // over the limit: refused from memory until the window (or ban) ends
          inMemoryBlockOnConsumed: settings.limit + 1,
          inMemoryBlockDuration: settings.banSeconds,
          insuranceLimiter: new RateLimiterMemory(base),
        },
        (err?: unknown) => (err ? reject(err) : resolve()),
      );
    });
    return new SharedThrottle(settings, limiter);
  }

  /** Counts one request for `key`; the refusal when it is over the limit, else null. */
  async consume(key: string): Promise<Throttled | null> {
    try {
      await this.limiter.consume(key);
      return null;
    } catch (e) {
      if (e instanceof RateLimiterRes) return this.throttled(e);
      // neither the store nor the insurance answered: let the request through
      return null;
    }
  }

  /** Whether `key` is refused now, without counting a request. */
  async refused(key: string): Promise<Throttled | null> {
    const blockedMs = (this.limiter as unknown as InMemoryBlocks).getInMemoryBlockMsBeforeExpire(this.limiter.getKey(key));
    if (blockedMs > 0) return this.throttled(new RateLimiterRes(0, blockedMs, this.settings.limit + 1));
    try {
      const res = await this.limiter.get(key);
      if (!res || res.consumedPoints <= this.settings.limit) return null;
      return this.throttled(res);
    } catch {
      return null;
    }
  }

  private throttled(res: RateLimiterRes): Throttled {
    const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    const reset = Math.ceil(Date.now() / 1000) + retryAfter;
    return {
      name: this.settings.name,
      retryAfter,
      headers: {
        'Retry-After': String(retryAfter),
        'RateLimit-Name': this.settings.name,
        // GitLab states the quota per minute
        'RateLimit-Limit': String(Math.ceil((this.settings.limit * 60) / this.settings.periodSeconds)),
        'RateLimit-Observed': String(res.consumedPoints),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(reset),
        'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(),
      },
    };
  }
}
