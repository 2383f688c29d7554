import type { AlertInput } from './alert-input';
import { objectField, textField, timeField } from './fields';
import { webhookFingerprint } from './fingerprint';
import { NotifyRefusal } from './refusal';
import { webhookSeverity } from './severity';

/** The top-level attributes of the metrics-alerting webhook format (spec), all required. */
const REQUIRED = ['version', 'groupKey', 'status', 'receiver', 'groupLabels', 'commonLabels', 'commonAnnotations', 'externalURL', 'alerts'];

/** At most this many alerts per message (GitLab processes the first 100; Anvil refuses more). */
export const MAX_ALERTS = 100;

/** Whether a body is in the webhook format: every required attribute present and `version` the string "4", as GitLab chooses. */
export function isWebhookPayload(body: Record<string, unknown>): boolean {
  return REQUIRED.every((k) => k in body) && body.version === '4';
}

/** The `g0.expr` query of a generator URL (decoded), or ''. */
function fullQuery(generatorUrl: string | null): string {
  if (!generatorUrl) return '';
  try {
    return new URL(generatorUrl).searchParams.get('g0.expr') ?? '';
  } catch {
    return '';
  }
}

/** Annotations kept as details: all but the ones mapped to the alert's own fields. */
const MAPPED_ANNOTATIONS = new Set(['title', 'description', 'service_incident_markdown']);

/**
 * One webhook element as an alert (GitLab's `Payload::Prometheus`), or null when it has no title
 * or no `startsAt` (GitLab skips it). `status: resolved` or a real `endsAt` in the past resolves;
 * Alertmanager's firing `0001-01-01T00:00:00Z` is no end.
 */
export function parseWebhookAlert(element: unknown, now = new Date()): AlertInput | null {
  const el = objectField(element);
  const labels = objectField(el.labels);
  const annotations = objectField(el.annotations);
  const title = textField(annotations.title, 200) ?? textField(annotations.summary, 200) ?? textField(labels.alertname, 200);
  const startsAtRaw = textField(el.startsAt, 100);
  if (!title || !startsAtRaw) return null;
  const endsAt = timeField(el.endsAt);
  const resolved = textField(el.status, 50) === 'resolved';
  for (const v of Object.values(annotations)) if (v !== null && typeof v === 'object') throw new NotifyRefusal(400);
  return {
    title,
    description: textField(annotations.description, 1000),
    startedAt: timeField(startsAtRaw) ?? now,
    endedAt: endsAt,
    resolving: resolved || (endsAt !== null && endsAt.getTime() <= now.getTime()),
    service: null,
    monitoringTool: 'Prometheus',
    hosts: [],
    severity: webhookSeverity(textField(labels.severity, 100)),
    environment: textField(labels.service_environment_name, 255),
    fingerprint: webhookFingerprint(startsAtRaw, title, fullQuery(textField(el.generatorURL, 8192))),
    incidentMarkdown: textField(annotations.service_incident_markdown, 1_000_000),
    payload: el,
    details: Object.fromEntries(Object.entries(annotations).filter(([k]) => !MAPPED_ANNOTATIONS.has(k))),
  };
}

/** The alerts of a webhook message: `alerts` must be an array of at most `MAX_ALERTS` objects (else 400); elements without a title or start are left out. */
export function parseWebhook(body: Record<string, unknown>, now = new Date()): AlertInput[] {
  if (!Array.isArray(body.alerts) || body.alerts.length > MAX_ALERTS) throw new NotifyRefusal(400);
  return body.alerts.map((a) => parseWebhookAlert(a, now)).filter((a): a is AlertInput => a !== null);
}
