import { bool, ConfigOf, int, oneOf, port, Schema, secret, serviceSchema, str, url } from '@anvil/config';
import { credentialSettings } from './credentials';
import { SERVICES } from './routes';

const httpUrl = (def: string) => url(['http', 'https'], def);

type UrlVariable = (typeof SERVICES)[keyof typeof SERVICES]['urlVariable'];

/** Where each service of the routing table listens: its variable, by default its loopback port. */
const upstreamUrls = Object.fromEntries(Object.values(SERVICES).map((s) => [s.urlVariable, httpUrl(`http://127.0.0.1:${s.port}`)])) as Record<UrlVariable, ReturnType<typeof httpUrl>>;

/** Everything the gateway reads from its environment. Upstream URLs default to the loopback ports of `SERVICES`. */
export const configSchema = {
  PORT: port(8080),
  HOST: str('127.0.0.1'),
  /** The public base URL clients use; services build links (web_url, Link headers) from it. */
  PUBLIC_URL: httpUrl('http://127.0.0.1:8080'),
  /** Ed25519 private key (PEM; `\n`-escaped single-line values accepted) that signs the request context. */
  GATEWAY_PRIVATE_KEY: secret(32),
  ...upstreamUrls,
  /** Shared token for identity's /internal API (token and :id resolution). */
  INTERNAL_API_TOKEN: secret(),
  /** Event bus for cache invalidation (`identity.#`); memory:// means none in a standalone process. */
  AMQP_URL: url(['amqp', 'amqps', 'memory'], 'memory://'),
  /** Prefix of the gateway's queue name (several environments on one broker). */
  QUEUE_PREFIX: str(''),
  /** The topic exchange events travel on. */
  EVENTS_EXCHANGE: str('anvil.events'),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
  ...credentialSettings,
  /** FIPS mode: every route whose entry says `notFoundInFips` answers `404 Not Found` before anything else. */
  FIPS_MODE: bool(false),
  /**
   * GitLab's API throttles (`ApplicationSetting` defaults, off as on self-managed GitLab), shared by
   * every replica through Postgres (DATABASE_URL, schema RATE_LIMIT_SCHEMA): per client address for
   * requests without working credentials, per user for the others.
   */
  THROTTLE_UNAUTHENTICATED_API_ENABLED: bool(false),
  THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD: int(3600, 1),
  THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS: int(3600, 1),
  THROTTLE_AUTHENTICATED_API_ENABLED: bool(false),
  THROTTLE_AUTHENTICATED_API_REQUESTS_PER_PERIOD: int(7200, 1),
  THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS: int(3600, 1),
  /** The failed-authentication ban (`rack_attack.git_basic_auth`): MAX_RETRY failures in FIND_TIME ban the address for TIME. */
  FAILED_AUTH_BAN_ENABLED: bool(false),
  FAILED_AUTH_BAN_MAX_RETRY: int(10, 1),
  FAILED_AUTH_BAN_FIND_TIME_SECONDS: int(60, 1),
  FAILED_AUTH_BAN_TIME_SECONDS: int(3600, 1),
  /** Where the limits' shared table lives (used only when a limit is on). */
  DATABASE_URL: serviceSchema.DATABASE_URL,
  RATE_LIMIT_SCHEMA: str('gateway'),
  /** Connections the limits may hold on Postgres (counted in the connection budget). */
  DB_POOL_MAX: int(2, 1, 100),
  /**
   * Proxies (CIDRs, comma-separated) whose X-Forwarded-For/-Proto/-Host the gateway believes (Rails'
   * trusted_proxies; GitLab trusts loopback). The client is the rightmost untrusted address.
   */
  TRUSTED_PROXIES: str('127.0.0.1/32,::1/128'),
  /** JSON and form request bodies larger than this (bytes) are refused with 413; uploads have their own limits. */
  MAX_REQUEST_BODY_BYTES: int(10 * 1024 * 1024, 1),
  /** On SIGTERM: how long (ms) requests in flight may take to finish before their connections are closed. */
  SHUTDOWN_GRACE_MS: int(25_000, 0),
  /**
   * A request body that sends nothing for this long (ms) is cut with 408 and its connection closed
   * (nginx's `client_body_timeout` in front of GitLab, 60 s). 0 turns it off.
   */
  CLIENT_BODY_TIMEOUT_MS: int(60_000, 0),
  /**
   * An answer whose bytes wait this long (ms) for a client that takes nothing is cut, its upstream
   * request or stored file let go (nginx's `send_timeout` in front of GitLab, 60 s). 0 turns it off.
   */
  CLIENT_SEND_TIMEOUT_MS: int(60_000, 0),
  /** An upstream connection idle this long (ms; no bytes either way) is cut: 504 before a response started. */
  UPSTREAM_TIMEOUT_MS: int(300_000, 1000),
  /** How long token and :id resolutions are cached (ms); kept short so revocation applies quickly. */
  AUTH_CACHE_TTL_MS: int(5000, 0, 5000),
  /**
   * Accelerated transfers (as GitLab Workhorse): on routes whose entry says so, the gateway stores
   * upload bodies and sends stored files itself, so it needs the same storage settings as those
   * services (STORAGE_*, S3_*).
   * Turn off when the gateway cannot reach that storage.
   */
  ACCELERATED_TRANSFERS: bool(true),
  STORAGE_DRIVER: serviceSchema.STORAGE_DRIVER,
  STORAGE_DIR: serviceSchema.STORAGE_DIR,
  STORAGE_FSYNC: serviceSchema.STORAGE_FSYNC,
  S3_ENDPOINT: serviceSchema.S3_ENDPOINT,
  S3_BUCKET: serviceSchema.S3_BUCKET,
  S3_REGION: serviceSchema.S3_REGION,
  S3_ACCESS_KEY_ID: serviceSchema.S3_ACCESS_KEY_ID,
  S3_SECRET_ACCESS_KEY: serviceSchema.S3_SECRET_ACCESS_KEY,
  S3_FORCE_PATH_STYLE: serviceSchema.S3_FORCE_PATH_STYLE,
} satisfies Schema;

export type GatewayConfig = ConfigOf<typeof configSchema>;
