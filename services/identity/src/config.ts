import { int, str, type Schema } from '@anvil/config';

/** Env vars the identity service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** A personal access token value that authenticates as `root` (api, sudo, admin_mode; no expiry). */
  ADMIN_TOKEN: str(null),
  /** `root`'s password (set on every start when given). */
  ADMIN_PASSWORD: str(null),
  /** Initial instance settings (a JSON object of GitLab's names), stored on first start only; the API changes them after. */
  APPLICATION_SETTINGS: str(null),
  /** How often the web hook delivery worker looks for due deliveries (ms). */
  HOOK_DELIVERY_POLL_MS: int(500, 10),
} satisfies Schema;

/** The identity service's own settings. */
export interface IdentityConfig {
  ADMIN_TOKEN?: string;
  ADMIN_PASSWORD?: string;
  APPLICATION_SETTINGS?: string;
  HOOK_DELIVERY_POLL_MS: number;
}
