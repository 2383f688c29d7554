import { bool, bytes, int, secret, type ConfigOf, type Schema } from '@anvil/config';

/** GitLab's default `conan_max_file_size` plan limit: 3 GiB. */
export const DEFAULT_CONAN_MAX_FILE_SIZE = 3 * 1024 ** 3;

/**
 * Env vars the registry service reads beyond the shared `serviceSchema`:
 * - `CONAN_JWT_SECRET` (required): HMAC key of the registry JWTs that `users/authenticate` mints and
 *   the gateway verifies (see `conanJwtSecret`).
 * - `CONAN_MAX_FILE_SIZE`: largest accepted file (bytes, or 512M / 3G); larger → 400 "File is too large".
 * - `FIPS_MODE`: when true every registry route answers 404, as GitLab does on a FIPS host.
 */
export const configSchema = {
  /** Postgres connections per process (budget: README's Database section). */
  DB_POOL_MAX: int(5, 1, 100),
  CONAN_JWT_SECRET: secret(),
  CONAN_MAX_FILE_SIZE: bytes(DEFAULT_CONAN_MAX_FILE_SIZE),
  FIPS_MODE: bool(false),
} satisfies Schema;

/** The registry's own settings. */
export type RegistryConfig = ConfigOf<typeof configSchema>;
