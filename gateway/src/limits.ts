import { createDb, ensureSchema, type Knex } from '@anvil/db';
import { RATE_LIMIT_TABLE, SharedThrottle, type ThrottleSettings, type Throttled } from '@anvil/http';
import type { GatewayConfig } from './config';
import type { Refusal } from './refusals';

/** Rack::Attack's answer to a throttled request. */
function tooMany(t: Throttled): Refusal {
  return { status: 429, text: true, body: 'Retry later\n', headers: t.headers };
}

/** Rack::Attack's answer to a blocklisted (banned) address. */
const FORBIDDEN: Refusal = { status: 403, text: true, body: 'Forbidden\n' };

/**
 * GitLab's request limits at the gateway, shared by every replica through Postgres:
 * `throttle_unauthenticated_api` per client address (requests without credentials, and those whose
 * credentials failed), `throttle_authenticated_api` per user, and the failed-authentication ban
 * (`Gitlab::Auth::IpRateLimiter`: `maxretry` failures within `findtime` ban the address for
 * `bantime`; a banned address is refused before its credentials are looked up).
 */
export class RequestLimits {
  private constructor(
    private readonly db: Knex,
    private readonly unauthenticated?: SharedThrottle,
    private readonly authenticated?: SharedThrottle,
    private readonly failedAuth?: SharedThrottle,
  ) {}

  /** The limits the configuration turns on, their table created; null when none is on. */
  static async start(config: GatewayConfig): Promise<RequestLimits | null> {
    const wanted: (ThrottleSettings | null)[] = [
      config.THROTTLE_UNAUTHENTICATED_API_ENABLED ? { name: 'throttle_unauthenticated_api', limit: config.THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD, periodSeconds: config.THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS } : null,
      config.THROTTLE_AUTHENTICATED_API_ENABLED ? { name: 'throttle_authenticated_api', limit: config.THROTTLE_AUTHENTICATED_API_REQUESTS_PER_PERIOD, periodSeconds: config.THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS } : null,
      // Allow2Ban bans at the MAX_RETRY-th failure; the limiter refuses once over its limit
      config.FAILED_AUTH_BAN_ENABLED ? { name: 'failed_auth_ban', limit: Math.max(1, config.FAILED_AUTH_BAN_MAX_RETRY - 1), periodSeconds: config.FAILED_AUTH_BAN_FIND_TIME_SECONDS, banSeconds: config.FAILED_AUTH_BAN_TIME_SECONDS } : null,
    ];
    if (wanted.every((w) => !w)) return null;
    const schema = config.RATE_LIMIT_SCHEMA;
    const url = config.DATABASE_URL as string;
    // as the gateway's own login (provisioned owning its schema), or an administrator that may create the schema
    const db = createDb({ url, schema, role: false, pool: { min: 0, max: config.DB_POOL_MAX } });
    try {
      if (!(await db.raw('SELECT 1 FROM pg_namespace WHERE nspname = ?', [schema])).rows.length) {
        await ensureSchema({ url, schema, role: false }).catch((e: unknown) => {
          throw new Error(`gateway: schema ${schema} does not exist: provision the gateway's login first (deploy/scripts/provision.ts, GATEWAY_DATABASE_URL): ${e instanceof Error ? e.message : String(e)}`);
        });
      }
      // one after the other: each creates the shared table when missing
      const made: (SharedThrottle | undefined)[] = [];
      for (const w of wanted) made.push(w ? await SharedThrottle.create(db, w, schema) : undefined);
      return new RequestLimits(db, made[0], made[1], made[2]);
    } catch (e) {
      await db.destroy();
      throw e;
    }
  }

  /** Before credentials are looked up: a banned address is refused (Rack::Attack's blocklist); a request without credentials counts. */
  async beforeAuthentication(ip: string, hasCredentials: boolean): Promise<Refusal | null> {
    if (this.failedAuth && (await this.failedAuth.refused(ip))) return FORBIDDEN;
    if (!hasCredentials && this.unauthenticated) {
      const t = await this.unauthenticated.consume(ip);
      if (t) return tooMany(t);
    }
    return null;
  }

  /** Credentials that were refused or counted as none: a failure towards the ban, and an unauthenticated request. */
  async credentialsFailed(ip: string): Promise<Refusal | null> {
    await this.failedAuth?.consume(ip);
    const t = this.unauthenticated ? await this.unauthenticated.consume(ip) : null;
    return t ? tooMany(t) : null;
  }

  async authenticatedRequest(userId: number): Promise<Refusal | null> {
    const t = this.authenticated ? await this.authenticated.consume(`user:${userId}`) : null;
    return t ? tooMany(t) : null;
  }

  async stop(): Promise<void> {
    await this.db.destroy();
  }
}

export { RATE_LIMIT_TABLE };
