import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { repositoryReader } from './repository';
import { mountCiLint } from './routes/ci-lint';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  return serviceApp(deps, {
    api: (router) => {
      mountCiLint(router, { db: deps.db, reader: repositoryReader });
    },
  });
}
