import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';

/** Builds the pipelines service's express app (no I/O here); its API arrives in a later issue. */
export function createApp(deps: ServiceDeps): Express {
  return serviceApp(deps, {});
}
