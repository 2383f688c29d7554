import type { Knex } from 'knex';
import { OUTBOX_CHANNEL, OutboxRow, rowToEnvelope } from './outbox';
import type { EventMetrics } from './metrics';
import { EventBus, EventLogger, errorMessage, stderrLogger } from './types';

/** Tuning of the relay; every field has a default. */
export interface OutboxRelayOptions {
  /** Safety-net poll interval when no notification arrives (default 1000 ms). */
  pollMs?: number;
  /** Rows claimed per transaction (default 100). */
  batchSize?: number;
  logger?: EventLogger;
  /** Wake on `emit`'s NOTIFY (default true); without it, the relay relies on `pollMs` alone. */
  listen?: boolean;
  /** Backoff after a failed publish: starts at `minBackoffMs`, doubles up to `maxBackoffMs` (100 / 5000 ms). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Counts the events published. */
  metrics?: EventMetrics;
}

interface PassResult {
  published: number;
  failed: number;
}

interface PgListenConnection {
  query(sql: string): Promise<unknown>;
  on(event: string, fn: (...args: never[]) => void): unknown;
  removeListener(event: string, fn: (...args: never[]) => void): unknown;
}

/**
 * Publishes committed outbox rows. Each pass claims unpublished rows in `id` order with
 * `SELECT … FOR UPDATE SKIP LOCKED` (so any number of replicas can relay without publishing a row
 * twice), publishes them with broker confirms, and marks the confirmed ones `published_at`; rows
 * whose publish failed stay unpublished (`attempts`, `last_error` updated) and are retried after a
 * backoff. It wakes on `emit`'s `pg_notify` (LISTEN on a dedicated pooled connection), after a
 * full batch, and every `pollMs`. Delivery is at least once; order is `id` order per batch, and a
 * retried row may arrive after later ones.
 */
export class OutboxRelay {
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly logger: EventLogger;
  private readonly opts: { listen: boolean; minBackoffMs: number; maxBackoffMs: number };
  private readonly metrics?: EventMetrics;
  private running = false;
  private stopping = false;
  private current: Promise<void> | null = null;
  private again = false;
  private failures = 0;
  private backingOff = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: { conn: PgListenConnection; detach: () => void } | null = null;
  private listenRetry: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Knex,
    private readonly bus: EventBus,
    opts: OutboxRelayOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 1000;
    this.batchSize = Math.max(1, opts.batchSize ?? 100);
    this.logger = opts.logger ?? stderrLogger;
    this.opts = { listen: opts.listen ?? true, minBackoffMs: opts.minBackoffMs ?? 100, maxBackoffMs: opts.maxBackoffMs ?? 5000 };
    this.metrics = opts.metrics;
  }

  /** Starts relaying in the background (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    if (this.opts.listen) void this.listen();
    this.wake();
  }

  /** Stops relaying: waits for the pass in progress, then releases the LISTEN connection. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.listenRetry) clearTimeout(this.listenRetry);
    this.timer = null;
    await this.current;
    await this.unlisten();
  }

  /** Relays everything unpublished now (batch after batch) and returns how many events were published. */
  async flushOnce(): Promise<number> {
    return (await this.drain()).published;
  }

  private wake(): void {
    if (!this.running) return;
    if (this.current) {
      this.again = true;
      return;
    }
    if (this.backingOff) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = this.pass().finally(() => (this.current = null));
  }

  private async pass(): Promise<void> {
    const result = await this.drain().catch((err: unknown): PassResult => {
      this.logger.warn('outbox relay pass failed', { err: errorMessage(err) });
      return { published: 0, failed: 1 };
    });
    if (!this.running) return;
    if (result.failed > 0) {
      this.failures++;
      this.again = false;
      this.backingOff = true;
      const delay = Math.min(this.opts.maxBackoffMs, this.opts.minBackoffMs * 2 ** (this.failures - 1));
      this.schedule(delay, () => {
        this.backingOff = false;
        this.wake();
      });
      return;
    }
    this.failures = 0;
    const rerun = this.again;
    this.again = false;
    this.schedule(rerun ? 0 : this.pollMs, () => this.wake());
  }

  private schedule(ms: number, fn: () => void): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      fn();
    }, ms);
  }

  private async drain(): Promise<PassResult> {
    const total: PassResult = { published: 0, failed: 0 };
    for (;;) {
      const r = await this.batch();
      total.published += r.published;
      total.failed += r.failed;
      if (r.failed > 0 || r.published < this.batchSize || this.stopping) return total;
    }
  }

  /** One transaction: claim a batch, publish it, mark what the broker confirmed. */
  private batch(): Promise<PassResult> {
    return this.db.transaction(async (trx) => {
      const rows: OutboxRow[] = await trx('outbox').select('*').whereNull('published_at').orderBy('id').limit(this.batchSize).forUpdate().skipLocked();
      if (rows.length === 0) return { published: 0, failed: 0 };
      const results = await Promise.allSettled(rows.map((row) => this.bus.publish(rowToEnvelope(row))));
      const ok = rows.filter((_, i) => results[i].status === 'fulfilled').map((r) => r.id);
      const failed = rows.filter((_, i) => results[i].status === 'rejected').map((r) => r.id);
      if (ok.length) await trx('outbox').whereIn('id', ok).update({ published_at: trx.fn.now(), attempts: trx.raw('attempts + 1'), last_error: null });
      if (this.metrics) rows.forEach((row, i) => results[i].status === 'fulfilled' && this.metrics!.publishedOne(row));
      if (failed.length) {
        const first = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        const error = errorMessage(first?.reason).slice(0, 1000);
        await trx('outbox').whereIn('id', failed).update({ attempts: trx.raw('attempts + 1'), last_error: error });
        this.logger.warn('outbox publish failed; will retry', { failed: failed.length, err: error });
      }
      return { published: ok.length, failed: failed.length };
    });
  }

  /** LISTENs on a pooled connection it keeps; re-listens after that connection breaks. */
  private async listen(): Promise<void> {
    let conn: PgListenConnection | null = null;
    try {
      const schema = ((await this.db.raw('SELECT current_schema() AS s')) as { rows: Array<{ s: string }> }).rows[0].s;
      conn = (await this.db.client.acquireConnection()) as PgListenConnection;
      const c = conn;
      const onNote = (msg: { channel: string; payload?: string }) => {
        if (msg.channel === OUTBOX_CHANNEL && msg.payload === schema) this.wake();
      };
      const onBroken = () => {
        if (this.listener?.conn !== c) return;
        void this.unlisten().then(() => this.retryListen());
      };
      c.on('notification', onNote);
      c.on('error', onBroken);
      c.on('end', onBroken);
      this.listener = {
        conn: c,
        detach: () => {
          c.removeListener('notification', onNote);
          c.removeListener('error', onBroken);
          c.removeListener('end', onBroken);
        },
      };
      await c.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (!this.running) await this.unlisten();
    } catch (err) {
      this.logger.warn('outbox relay LISTEN failed; polling meanwhile', { err: errorMessage(err) });
      if (this.listener) await this.unlisten();
      else if (conn) await Promise.resolve(this.db.client.releaseConnection(conn)).catch(() => undefined);
      this.retryListen();
    }
  }

  private retryListen(): void {
    if (!this.running || this.listenRetry) return;
    this.listenRetry = setTimeout(() => {
      this.listenRetry = null;
      if (this.running && !this.listener) void this.listen();
    }, 1000);
  }

  private async unlisten(): Promise<void> {
    const l = this.listener;
    if (!l) return;
    this.listener = null;
    l.detach();
    l.conn.on('error', () => undefined);
    await l.conn.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
    await Promise.resolve(this.db.client.releaseConnection(l.conn)).catch(() => undefined);
  }
}
