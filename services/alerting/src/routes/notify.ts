import type { NextFunction, Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { Endpoint, notify } from '../notify/notify-service';
import type { NotifyLimiter } from '../notify/rate-limit';
import { integrationKey } from '../notify/credentials';
import { NotifyRefusal } from '../payload';

/** Notify requests as the gateway forwards them (`/<project path>/...` → `/api/v4/projects/<id>/...`): their bodies are read here, within limits. */
export const NOTIFY_PATH = /^\/api\/v4\/projects\/[^/?]+\/(?:prometheus\/alerts\/notify(?:\.json)?|alerts\/notify(?:\.json)?|alerts\/notify\/[^/?]+\/[^/?]+)(?:\?|$)/;

function run(db: Knex, limiter: NotifyLimiter, endpoint: (req: Request) => Endpoint) {
  return async (req: Request, res: Response) => {
    const projectId = req.anvil?.project?.id ?? null;
    const key = integrationKey(req.get('authorization'), req.query.token);
    const length = req.get('content-length');
    const declaredBytes = length && /^\d+$/.test(length) ? Number(length) : null;
    res.json(await notify(db, limiter, { projectId, endpoint: endpoint(req), key, body: req, declaredBytes }));
  };
}

/** How much of a refused body is read and dropped before the answer; past it the connection is cut. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * A refused notify request: its bare status (and headers), no body. A body left unread is read to
 * its end first (up to DRAIN_LIMIT, else the connection is cut), so a proxy still sending it reads
 * the answer; the connection closes after it.
 */
function refusals(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (!(err instanceof NotifyRefusal)) return next(err);
  const answer = () => void res.status(err.status).set(err.headers).end();
  if (req.complete) return answer();
  res.set('Connection', 'close');
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) req.socket.destroy();
  });
  req.once('end', answer);
  req.resume();
}

/** The alert notify endpoints (GitLab's `Projects::Alerting::NotificationsController` and the Prometheus one). */
export function mountNotify(router: Router, db: Knex, limiter: NotifyLimiter): void {
  // POST /:namespace/:project/alerts/notify/:name/:endpoint_identifier(.json)
  router.post('/projects/:id/alerts/notify/:name/:endpoint', run(db, limiter, (req) => ({ kind: 'http', identifier: String(req.params.endpoint).replace(/\.json$/, '') })));
  // POST /:namespace/:project/alerts/notify(.json)
  router.post('/projects/:id/alerts/notify{.json}', run(db, limiter, () => ({ kind: 'legacy' })));
  // POST /:namespace/:project/prometheus/alerts/notify(.json)
  router.post('/projects/:id/prometheus/alerts/notify{.json}', run(db, limiter, () => ({ kind: 'prometheus' })));
  router.use('/projects/:id', refusals);
}
