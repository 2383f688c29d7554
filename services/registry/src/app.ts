import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { translatePgError } from '@anvil/db';
import { createServiceApp } from '@anvil/http';
import type { ServiceDeps } from '@anvil/runtime';
import { conanJwtSecret } from './auth/jwt';
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

/**
 * Every Conan PUT is a file body to stream: its Content-Type is dropped before the shared JSON and
 * form parsers could read it (Conan sends none; curl and others may send a form type).
 */
function keepFileBodiesRaw(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'PUT' && CONAN_PUT.test(req.path)) delete req.headers['content-type'];
  next();
}

/** Builds the registry service's express app (no I/O here). */
export function createApp(deps: ServiceDeps<RegistryConfig>): Express {
  const outer = express();
  outer.disable('x-powered-by');
  outer.use(keepFileBodiesRaw);
  outer.use(serviceApp(deps));
  return outer;
}

function serviceApp(deps: ServiceDeps<RegistryConfig>): Express {
  const routeDeps = {
    registry: registryDeps(deps),
    identity: deps.identity,
    tokenExpiry: new TokenExpiry(deps.identity),
    jwtSecret: conanJwtSecret(deps.config),
  };
  return createServiceApp({
    name: deps.name,
    verifier: deps.verifier,
    internalToken: deps.internalToken,
    logger: deps.log,
    readiness: async () => {
      await deps.db.raw('select 1');
      return true;
    },
    errorTranslators: [(e) => translatePgError(e)],
    api: (router) => mountRegistry(router, routeDeps, deps.config.FIPS_MODE),
  });
}
