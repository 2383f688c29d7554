import { str, type Schema } from '@anvil/config';

/** Env vars the identity service reads beyond the shared `serviceSchema`. */
export const configSchema = {
  /** A personal access token value that authenticates as `root` (api, sudo, admin_mode; no expiry). */
  ADMIN_TOKEN: str(null),
  /** `root`'s password (set on every start when given). */
  ADMIN_PASSWORD: str(null),
} satisfies Schema;

/** The identity service's own settings. */
export interface IdentityConfig {
  ADMIN_TOKEN?: string;
  ADMIN_PASSWORD?: string;
}
