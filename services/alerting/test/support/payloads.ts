/** Payloads as real senders post them. */

/** What Alertmanager 0.25 sends (reference: clients.md, Alertmanager section). */
export function amMessage(alerts: unknown[], status = 'firing'): Record<string, unknown> {
  return {
    receiver: 'r', status, alerts, groupLabels: { alertname: 'AccHighCpu' }, commonLabels: {}, commonAnnotations: {},
    externalURL: 'http://vm:57421', version: '4', groupKey: '{}:{alertname="AccHighCpu"}', truncatedAlerts: 0,
  };
}

/** One firing alert as Alertmanager 0.25 renders it. */
export const firing = {
  status: 'firing',
  labels: { alertname: 'AccHighCpu', instance: 'host-a:9100', service_environment_name: 'production', severity: 'P2' },
  annotations: { description: 'idle below 10%', runbook: 'https://runbooks.example/cpu', summary: 'CPU summary', title: 'CPU usage high on host-a', service_incident_markdown: '**look**' },
  startsAt: '2026-11-22T00:55:23.208Z',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: 'http://127.0.0.1:9090/graph?g0.expr=rate%28node_cpu_seconds_total%7Bmode%3D%22idle%22%7D%5B5m%5D%29+%3C+0.1&g0.tab=1',
  fingerprint: '8f2f65ec2de069ee',
};

