import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { processAlert } from '../alerts/alert-processing';
import { PROMETHEUS_IDENTIFIER } from '../integrations/integration-service';
import { Integration, integrationForEndpoint } from '../integrations/integration-store';
import { NotifyRefusal, parseNotifyBody, parsePayload, readLimitedBody } from '../payload';
import { keyOpens } from './credentials';
import type { NotifyLimiter } from './rate-limit';

/** Which integration a notify URL names: an HTTP one by identifier, the legacy generic URL, or the Prometheus URL. */
export type Endpoint = { kind: 'http'; identifier: string } | { kind: 'legacy' } | { kind: 'prometheus' };

/** What a notify request is: its project (null when the gateway found none), URL, key and body. */
export interface NotifyRequest {
  projectId: number | null;
  endpoint: Endpoint;
  key: string | null;
  body: Readable;
  /** The body's `Content-Length`, when it declares one. */
  declaredBytes: number | null;
}

/** GitLab's endpoint identifiers are `[A-Za-z0-9]+`; anything else names no integration. */
const IDENTIFIER = /^[A-Za-z0-9]{1,255}$/;

function identifierOf(endpoint: Endpoint): string | null {
  if (endpoint.kind === 'prometheus') return PROMETHEUS_IDENTIFIER;
  if (endpoint.kind === 'legacy') return null;
  return IDENTIFIER.test(endpoint.identifier) ? endpoint.identifier : '-';
}

/** The integration a request opens, else 401 (the same answer and the same work for every way of missing). */
async function authorise(db: Knex, req: NotifyRequest): Promise<Integration> {
  const integration = await integrationForEndpoint(db, req.projectId ?? 0, identifierOf(req.endpoint));
  if (!keyOpens(integration, req.key) || req.projectId === null) throw new NotifyRefusal(401);
  return integration!;
}

/**
 * Receives alerts: authorises the key, applies the project's notify limit, reads the body within
 * GitLab's limits (1 MB, depth 100, JSON object; 400 otherwise, nothing stored), parses it in the
 * format its shape says, and applies each alert. Returns `[{iid, title}]` of the alerts created,
 * counted or resolved; a native payload that resolves nothing is 400, as GitLab answers.
 */
export async function notify(db: Knex, limiter: NotifyLimiter, req: NotifyRequest): Promise<{ iid: number; title: string }[]> {
  const integration = await authorise(db, req);
  await limiter.hit(integration.projectId);
  const payload = parsePayload(parseNotifyBody(await readLimitedBody(req.body, req.declaredBytes)));
  const answered: { iid: number; title: string }[] = [];
  for (const input of payload.alerts) {
    const outcome = await processAlert(db, integration.projectId, integration.id, input);
    if (outcome.kind !== 'unmatched') answered.push({ iid: outcome.alert.iid, title: outcome.alert.title });
  }
  if (payload.format === 'native' && answered.length === 0) throw new NotifyRefusal(400);
  return answered;
}
