import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { mountRunnerApi } from './routes/runner-api';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  return serviceApp(deps, {
    api: (router) => {
      mountRunnerApi(router, { db: deps.db, identity: deps.identity });
    },
  });
}
