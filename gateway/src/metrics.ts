import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The methods the latency histogram names; any other is `other` (the label stays bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Label of a request that matched no routing-table entry (refused, or unknown path). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The gateway's Prometheus metrics: responses by status, and request latency by route — the
 * routing table's pattern (`/projects/:id/issues/*`), a local page's path, `alert`, or `unmatched`,
 * never the raw path, so the series stay few — and method.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly responses: Counter<'status'>;
  private readonly latency: Histogram<'route' | 'method'>;

  constructor(uploadsReceiving?: () => number) {
    const registers = [this.registry];
    this.responses = new Counter({ name: 'gateway_responses_total', help: 'Responses by status', labelNames: ['status'], registers });
    this.latency = new Histogram({
      name: 'gateway_request_duration_seconds',
      help: 'Time from request to response end, by route pattern and method',
      labelNames: ['route', 'method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    if (uploadsReceiving) {
      new Gauge({
        name: 'gateway_upload_bodies_receiving',
        help: 'Upload bodies being stored now',
        registers,
        collect() {
          this.set(uploadsReceiving());
        },
      });
    }
  }

  /** Records one finished (or abandoned, 499) request. */
  observe(route: string, method: string, status: number, seconds: number): void {
    this.responses.inc({ status: String(status) });
    this.latency.observe({ route, method: METHODS.has(method) ? method : 'other' }, seconds);
  }

  /** Prometheus text. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
