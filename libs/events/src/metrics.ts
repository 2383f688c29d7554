import type { Knex } from 'knex';
import { Counter, Gauge, Registry } from 'prom-client';
import { Delivery, EventEnvelope, EventHandler } from './types';

/** What the dead-letter gauge asks the bus (both adapters answer it). */
export interface DeadLetterCounter {
  deadLetterCount(queue: string): Promise<number>;
}

export interface EventMetricsOptions {
  /** The service's database: outbox lag and inbox size are read from its `outbox` and `inbox` at scrape time. */
  db?: Knex;
  /** The bus whose dead letters are counted per consumer queue (`consumedQueues`). */
  bus?: unknown;
  /** Labels on every series (e.g. `{ service }`). */
  labels?: Record<string, string>;
}

/**
 * A service's event metrics in their own prom-client registry: events published by the outbox relay
 * (by type) and consumed (by queue and outcome), redeliveries (by queue), and, read when scraped,
 * the outbox's unpublished rows and the age of the oldest one, the inbox's rows and the dead
 * letters of each queue this service consumes. A gauge whose source cannot be read (database or
 * broker down) is left out of that scrape rather than failing it.
 */
export class EventMetrics {
  readonly registry = new Registry();
  private readonly published: Counter<'type'>;
  private readonly consumed: Counter<'queue' | 'outcome'>;
  private readonly redeliveries: Counter<'queue'>;
  private readonly queues = new Set<string>();

  constructor(opts: EventMetricsOptions = {}) {
    if (opts.labels) this.registry.setDefaultLabels(opts.labels);
    const registers = [this.registry];
    this.published = new Counter({ name: 'anvil_events_published_total', help: 'Events the outbox relay published (broker-confirmed), by type', labelNames: ['type'], registers });
    this.consumed = new Counter({ name: 'anvil_events_consumed_total', help: 'Event deliveries handled, by queue and outcome (ok, failed)', labelNames: ['queue', 'outcome'], registers });
    this.redeliveries = new Counter({ name: 'anvil_events_redeliveries_total', help: 'Deliveries of an event seen before (a retry or a redelivery after a crash), by queue', labelNames: ['queue'], registers });
    const db = opts.db;
    if (db) {
      const outbox = async () => {
        const { rows } = (await db.raw(
          `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(occurred_at)), 0)::float8 AS lag FROM outbox WHERE published_at IS NULL`,
        )) as { rows: Array<{ n: number; lag: number }> };
        return rows[0];
      };
      new Gauge({
        name: 'anvil_outbox_unpublished',
        help: 'Outbox rows not yet published',
        registers,
        async collect() {
          const r = await outbox().catch(() => null);
          if (r) this.set(r.n);
        },
      });
      new Gauge({
        name: 'anvil_outbox_lag_seconds',
        help: 'Age of the oldest unpublished outbox row (0 when all are published)',
        registers,
        async collect() {
          const r = await outbox().catch(() => null);
          if (r) this.set(Math.max(0, r.lag));
        },
      });
      new Gauge({
        name: 'anvil_inbox_events',
        help: 'Rows in the inbox (events applied and remembered for deduplication)',
        registers,
        async collect() {
          const rows = await db('inbox').count<Array<{ n: string }>>({ n: '*' }).catch(() => null);
          if (rows) this.set(Number(rows[0].n));
        },
      });
    }
    const bus = opts.bus as Partial<DeadLetterCounter> | undefined;
    if (bus && typeof bus.deadLetterCount === 'function') {
      const queues = this.queues;
      const count = bus.deadLetterCount.bind(bus);
      new Gauge({
        name: 'anvil_events_dead_letters',
        help: 'Events in the dead-letter queue of each queue this service consumes',
        labelNames: ['queue'],
        registers,
        async collect() {
          this.reset();
          await Promise.all(
            [...queues].map(async (queue) => {
              const n = await count(queue).catch(() => null);
              if (n !== null) this.set({ queue }, n);
            }),
          );
        },
      });
    }
  }

  /** Counts one confirmed publish (the relay calls it). */
  publishedOne(event: Pick<EventEnvelope, 'type'>): void {
    this.published.inc({ type: event.type });
  }

  /** The queues whose dead letters are counted. */
  get consumedQueues(): string[] {
    return [...this.queues];
  }

  /** `handler` counting its deliveries on `queue`: outcome, and redeliveries; registers the queue for the dead-letter gauge. */
  counted(queue: string, handler: EventHandler): EventHandler {
    this.queues.add(queue);
    return async (event: EventEnvelope, delivery: Delivery) => {
      if (delivery.redelivered) this.redeliveries.inc({ queue });
      try {
        await handler(event, delivery);
      } catch (err) {
        this.consumed.inc({ queue, outcome: 'failed' });
        throw err;
      }
      this.consumed.inc({ queue, outcome: 'ok' });
    };
  }
}
