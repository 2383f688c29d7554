import type { Express, Request } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { conanJwtSecret } from '@anvil/auth';
import { TokenExpiry } from './auth/token-expiry';
import type { RegistryConfig } from './config';
import type { RegistryDeps } from './packages/deps';
import { mountRegistry } from './routes';

/** The registry's domain dependencies from the runtime's. */
export function registryDeps(deps: ServiceDeps<RegistryConfig>): RegistryDeps {
  return {
    db: deps.db,
    storage: deps.storage,
    log: deps.log,
    fileStore: deps.config.STORAGE_DRIVER === 's3' ? 2 : 1,
    maxFileSize: deps.config.CONAN_MAX_FILE_SIZE,
  };
}

const CONAN_PUT = /^\/api\/v4\/(?:projects\/[^/]+\/)?packages\/conan\/v[12]\//;

/** Every Conan PUT is a file body to stream, whatever Content-Type it carries (Conan sends none). */
const isConanUpload = (req: Request) => req.method === 'PUT' && CONAN_PUT.test(req.originalUrl);

/** Builds the registry service's express app (no I/O here). */
export function createApp(deps: ServiceDeps<RegistryConfig>): Express {
  const routeDeps = {
    registry: registryDeps(deps),
    identity: deps.identity,
    tokenExpiry: new TokenExpiry(deps.identity),
    jwtSecret: conanJwtSecret(deps.config),
  };
  return serviceApp(deps, {
    api: (router) => mountRegistry(router, routeDeps, deps.config.FIPS_MODE),
    streamBody: isConanUpload,
  });
}
