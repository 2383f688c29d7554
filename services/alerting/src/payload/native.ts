import type { AlertInput } from './alert-input';
import { hostsField, textField, timeField } from './fields';
import { derivedFingerprint, givenFingerprint } from './fingerprint';
import { nativeSeverity } from './severity';

/** The title of a native payload without one (spec: alert payload, native format). */
export const DEFAULT_TITLE = 'New: Alert';

/** The native format's mapped keys; every other key is kept in the alert's details. */
const MAPPED = new Set(['title', 'description', 'start_time', 'end_time', 'service', 'monitoring_tool', 'hosts', 'severity', 'fingerprint', 'service_environment_name']);

/**
 * The alert a native payload describes (GitLab's `Payload::Generic`): text cut to GitLab's
 * lengths, `start_time` else now, a parsable `end_time` resolves, the given fingerprint or one
 * derived from the payload. A wrong type where text or hosts belong → 400.
 */
export function parseNative(body: Record<string, unknown>, now = new Date()): AlertInput {
  const endedAt = timeField(body.end_time);
  return {
    title: textField(body.title, 200) ?? DEFAULT_TITLE,
    description: textField(body.description, 1000),
    startedAt: timeField(body.start_time) ?? now,
    endedAt,
    resolving: endedAt !== null,
    service: textField(body.service, 100),
    monitoringTool: textField(body.monitoring_tool, 100),
    hosts: hostsField(body.hosts),
    severity: nativeSeverity(textField(body.severity, 100)),
    environment: textField(body.service_environment_name, 255),
    fingerprint: givenFingerprint(body.fingerprint) ?? derivedFingerprint(body),
    incidentMarkdown: null,
    payload: body,
    details: Object.fromEntries(Object.entries(body).filter(([k]) => !MAPPED.has(k))),
  };
}
