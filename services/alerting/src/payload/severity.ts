/** An alert's severity (GitLab's `AlertManagement::Alert` severities). */
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info' | 'unknown';

/** Severities of the native format, case-insensitive (spec: alert payload, native format); anything else is `critical`. */
const NATIVE: ReadonlySet<string> = new Set(['critical', 'high', 'medium', 'low', 'info', 'unknown']);

/** The webhook format's mapping, case-insensitive (spec: severity mapping; `minor` as GitLab maps it); anything else is `critical`. */
const WEBHOOK: Record<string, Severity> = {};
for (const [severity, values] of Object.entries({
  critical: ['critical', 's1', 'p1', 'emergency', 'fatal'],
  high: ['high', 's2', 'p2', 'major', 'page'],
  medium: ['medium', 's3', 'p3', 'error', 'alert'],
  low: ['low', 's4', 'p4', 'warn', 'warning', 'minor'],
  info: ['info', 's5', 'p5', 'debug', 'information', 'notice'],
})) {
  for (const v of values) WEBHOOK[v] = severity as Severity;
}

/** The severity of a native payload's `severity`. */
export function nativeSeverity(value: string | null): Severity {
  const v = value?.toLowerCase();
  return v && NATIVE.has(v) ? (v as Severity) : 'critical';
}

/** The severity of a webhook alert's `labels.severity`. */
export function webhookSeverity(value: string | null): Severity {
  const v = value?.toLowerCase();
  return (v && Object.prototype.hasOwnProperty.call(WEBHOOK, v) && WEBHOOK[v]) || 'critical';
}
