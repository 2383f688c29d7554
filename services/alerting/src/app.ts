import type { Express, Request } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { NotifyLimiter } from './notify/rate-limit';
import { mountAlerts } from './routes/alerts';
import { mountHttpIntegrations } from './routes/http-integrations';
import { mountNotify, NOTIFY_PATH } from './routes/notify';

/** A notify body is read by its route, within GitLab's limits, never by the shared parsers. */
const isNotify = (req: Request) => req.method === 'POST' && NOTIFY_PATH.test(req.originalUrl);

/** Builds the alerting service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const limiter = new NotifyLimiter(Number(deps.config.ALERT_NOTIFY_LIMIT ?? 0), deps.db, deps.schema);
  return serviceApp(deps, {
    api: (router) => {
      mountNotify(router, deps.db, limiter);
      mountHttpIntegrations(router, deps.db);
      mountAlerts(router, deps.db);
    },
    streamBody: isNotify,
  });
}
