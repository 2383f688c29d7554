import { bool, int, secret, str, type Schema } from '@anvil/config';

/** Env vars the identity service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** Postgres connections per process (budget: README's Database section); every request the gateway authenticates reads identity. */
  DB_POOL_MAX: int(8, 1, 100),
  /** A personal access token value that authenticates as `root` (api, sudo, admin_mode; no expiry). */
  ADMIN_TOKEN: secret(),
  /** `root`'s first password (set on an empty instance only). */
  ADMIN_PASSWORD: secret(8),
  /** The LDAP server of provider `ldapmain` (`ldap://` or `ldaps://`); LDAP is disabled without it. */
  LDAP_URL: str(null),
  /** The DN the sync binds as (anonymous bind without it). */
  LDAP_BIND_DN: str(null),
  LDAP_BIND_PASSWORD: str(null),
  /** Where users are searched (and filter links applied). */
  LDAP_BASE: str(''),
  /** Where groups of `cn` links are searched (default: LDAP_BASE). */
  LDAP_GROUP_BASE: str(null),
  /** The attribute holding a user's login name, matched to Anvil usernames. */
  LDAP_UID: str('uid'),
  /** Initial instance settings (a JSON object of GitLab's names), stored on first start only; the API changes them after. */
  APPLICATION_SETTINGS: str(null),
  /** Whether this instance delivers web hooks (queued deliveries wait for an instance that does). */
  HOOK_DELIVERY_WORKER: bool(true),
  /** The longest the delivery worker sleeps while deliveries are pending (ms). */
  HOOK_DELIVERY_POLL_MS: int(10_000, 10),
  /**
   * Each calling service's own token for `/internal` (a JSON object: `gateway`, `registry`,
   * `pipelines`, `project-transfer` → token); each may call only the routes it needs. Without it the
   * shared `INTERNAL_API_TOKEN` may call every route.
   */
  INTERNAL_API_TOKENS: str(null),
  /** Seconds between the heartbeats (`<service>.transfer.part.progressed`) this service publishes while it works on a part of an export or import. */
  TRANSFER_HEARTBEAT_SECONDS: int(60, 1),
} satisfies Schema;

/** The identity service's own settings. */
export interface IdentityConfig {
  ADMIN_TOKEN?: string;
  ADMIN_PASSWORD?: string;
  LDAP_URL?: string;
  LDAP_BIND_DN?: string;
  LDAP_BIND_PASSWORD?: string;
  LDAP_BASE: string;
  LDAP_GROUP_BASE?: string;
  LDAP_UID: string;
  APPLICATION_SETTINGS?: string;
  HOOK_DELIVERY_WORKER: boolean;
  HOOK_DELIVERY_POLL_MS: number;
  INTERNAL_API_TOKENS?: string;
  TRANSFER_HEARTBEAT_SECONDS: number;
}
