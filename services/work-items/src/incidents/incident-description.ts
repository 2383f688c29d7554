import type { AlertEventV1 } from '@anvil/events';

/**
 * The description of an incident opened from an alert (GitLab's `AlertPresenter#issue_description`):
 * a summary of the alert's fields, then its `service_incident_markdown` after a rule.
 */
export function incidentDescription(a: AlertEventV1): string {
  const fields = [`**Start time:** ${a.started_at}`, `**Severity:** ${a.severity}`];
  if (a.service) fields.push(`**Service:** ${a.service}`);
  if (a.monitoring_tool) fields.push(`**Monitoring tool:** ${a.monitoring_tool}`);
  if (a.hosts.length) fields.push(`**Hosts:** ${a.hosts.join(' ')}`);
  if (a.environment) fields.push(`**Environment:** ${a.environment}`);
  const parts = ['#### Summary', fields.join('  \n')];
  if (a.description) parts.push(`**Description:** ${a.description}`);
  const text = parts.join('\n\n');
  return a.incident_markdown ? `${text}\n\n---\n\n${a.incident_markdown}` : text;
}
