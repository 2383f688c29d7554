import type { Knex } from 'knex';
import { pruneInbox, pruneOutbox } from './outbox';
import { EventLogger, errorMessage, stderrLogger } from './types';

/** Default retention of published outbox rows and applied inbox rows: 7 days. */
export const DEFAULT_EVENTS_RETENTION_HOURS = 168;
/** How often a pruner runs a pass by default: hourly. */
export const DEFAULT_PRUNE_INTERVAL_MS = 3_600_000;

/** What one pass deleted. */
export interface PruneResult {
  outbox: number;
  inbox: number;
}

/** Retention and schedule of an `EventPruner`. */
export interface EventPrunerOptions {
  /** Rows published (outbox) or applied (inbox) longer ago than this are deleted. */
  retentionMs: number;
  /** Time between passes (default DEFAULT_PRUNE_INTERVAL_MS); the first pass runs one interval after `start`. */
  intervalMs?: number;
  logger?: EventLogger;
}

/**
 * Keeps `outbox` and `inbox` from growing without end: on a schedule, deletes outbox rows published
 * before the retention and inbox rows applied before it. Unpublished outbox rows are never deleted.
 * Several replicas may prune the same schema at once: each pass is a plain delete.
 */
export class EventPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly log: EventLogger;

  constructor(
    private readonly db: Knex,
    private readonly opts: EventPrunerOptions,
  ) {
    this.log = opts.logger ?? stderrLogger;
  }

  /** One pass: deletes what is older than the retention and returns how many rows went. */
  async pass(): Promise<PruneResult> {
    const outbox = await pruneOutbox(this.db, this.opts.retentionMs);
    const inbox = await pruneInbox(this.db, this.opts.retentionMs);
    if (outbox || inbox) this.log.info?.('pruned events', { outbox, inbox });
    return { outbox, inbox };
  }

  /** Runs a pass every interval until `stop`. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pass()
        .catch((e: unknown) => this.log.warn('pruning events failed', { err: errorMessage(e) }))
        .finally(() => (this.running = null));
    }, this.opts.intervalMs ?? DEFAULT_PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a pass under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
