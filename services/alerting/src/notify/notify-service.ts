import type { Readable } from 'node:stream';
import type { Db } from '@anvil/db';
import type { Knex } from 'knex';
import { applyAlerts, Outcome } from '../alerts/alert-processing';
import { PROMETHEUS_IDENTIFIER } from '../integrations/integration-service';
import type { Integration } from '../integrations/integration-store';
import { AlertInput, NotifyRefusal, parseNotifyBody, parsePayload, readLimitedBody } from '../payload';
import { AlertSettings, settingsOf } from '../settings/settings-store';
import type { BatchHandler, CommitBatcher } from './commit-batcher';
import { IntegrationCache, staleIntegrations } from './integration-cache';
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

/** What the notify flow works with, one per process. */
export interface NotifyDeps {
  db: Knex;
  limiter: NotifyLimiter;
  integrations: IntegrationCache;
  batcher: CommitBatcher<NotifyJob, Outcome[]>;
}

/** GitLab's endpoint identifiers are `[A-Za-z0-9]+`; anything else names no integration. */
const IDENTIFIER = /^[A-Za-z0-9]{1,255}$/;

function identifierOf(endpoint: Endpoint): string | null {
  if (endpoint.kind === 'prometheus') return PROMETHEUS_IDENTIFIER;
  if (endpoint.kind === 'legacy') return null;
  return IDENTIFIER.test(endpoint.identifier) ? endpoint.identifier : '-';
}

/** The integration a request opens, else 401 (the same answer for every way of missing). */
async function authorise(db: Db, integrations: IntegrationCache, req: NotifyRequest): Promise<Integration> {
  const integration = await integrations.opened(db, req.projectId ?? 0, identifierOf(req.endpoint), req.key);
  if (!integration || req.projectId === null) throw new NotifyRefusal(401);
  return integration;
}

/** A notify request's alerts, with the integration its key opened. */
export interface NotifyJob {
  req: NotifyRequest;
  integration: Integration;
  alerts: AlertInput[];
}

/** An integration's row changed since this process read it: the batch is stored again job by job. */
class StaleIntegration extends Error {}

/**
 * How notify jobs are stored: a batch checks again, in its transaction, the row of every
 * integration it uses (one statement, share-locked), then applies all its alerts in order; alone,
 * a job looks its integration up afresh (a reset key, a deactivated or deleted integration → 401).
 */
export function notifyHandler(integrations: IntegrationCache): BatchHandler<NotifyJob, Outcome[]> {
  const applications = (job: NotifyJob, integration: Integration) => job.alerts.map((input) => ({ projectId: integration.projectId, integrationId: integration.id, input }));
  const settingsReader = (trx: Knex.Transaction) => {
    const read = new Map<number, Promise<AlertSettings>>();
    return (projectId: number) => read.get(projectId) ?? read.set(projectId, settingsOf(trx, projectId)).get(projectId)!;
  };
  return {
    async batch(trx, jobs) {
      const stale = await staleIntegrations(trx, jobs.map((j) => j.integration));
      if (stale.length) {
        for (const id of stale) integrations.forget(id);
        throw new StaleIntegration();
      }
      const outcomes = await applyAlerts(trx, jobs.flatMap((j) => applications(j, j.integration)), settingsReader(trx));
      let at = 0;
      return jobs.map((j) => outcomes.slice(at, (at += j.alerts.length)));
    },
    async alone(trx, job) {
      const integration = await authorise(trx, new IntegrationCache(), job.req);
      return applyAlerts(trx, applications(job, integration), settingsReader(trx));
    },
  };
}

/**
 * Receives alerts: authorises the key, applies the project's notify limit, reads the body within
 * GitLab's limits (1 MB, depth 100, JSON object; 400 otherwise, nothing stored), parses it in the
 * format its shape says, and applies its alerts in the process's next batch transaction. Returns
 * `[{iid, title}]` of the alerts created, counted or resolved, once committed; a native payload
 * that resolves nothing is 400, as GitLab answers.
 */
export async function notify(deps: NotifyDeps, req: NotifyRequest): Promise<{ iid: number; title: string }[]> {
  const integration = await authorise(deps.db, deps.integrations, req);
  await deps.limiter.hit(integration.projectId);
  const payload = parsePayload(parseNotifyBody(await readLimitedBody(req.body, req.declaredBytes)));
  const outcomes = payload.alerts.length ? await deps.batcher.run({ req, integration, alerts: payload.alerts }) : [];
  const answered = outcomes.flatMap((o) => (o.kind === 'unmatched' ? [] : [{ iid: o.alert.iid, title: o.alert.title }]));
  if (payload.format === 'native' && answered.length === 0) throw new NotifyRefusal(400);
  return answered;
}
