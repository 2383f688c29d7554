import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '@anvil/http';
import { JOBS_PENDING_CHANNEL } from '../../migrations/20261126000300_create_runners';

interface PgConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', fn: (msg: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', fn: (e?: unknown) => void): void;
  removeAllListeners(event?: string): void;
}

/**
 * Wakes long-polling runners when a job becomes pending: one Postgres connection LISTENs to the
 * channel the jobs trigger notifies (so a job made pending by any replica wakes runners on every
 * replica), and each wake-up changes the queue value runners send back as `last_update` (GitLab's
 * `runner:build_queue` value, which Workhorse watches). Listening starts with the first waiter.
 */
export class JobQueueWaker {
  private value = randomBytes(16).toString('hex');
  private readonly waiters = new Set<() => void>();
  private connection: PgConnection | null = null;
  private starting: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly schema: string,
    private readonly log: Logger,
  ) {}

  /** The current queue value (`X-GitLab-Last-Update`). */
  get current(): string {
    return this.value;
  }

  /** How many requests are waiting now. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** A job became pending: a new queue value, every waiter woken. */
  tick(): void {
    this.value = randomBytes(16).toString('hex');
    const woken = [...this.waiters];
    this.waiters.clear();
    for (const w of woken) w();
  }

  /**
   * Resolves true when the queue value moves within `ms` (or already differs from `seen`), false on
   * timeout or when `signal` aborts (the client went away).
   */
  async wait(seen: string, ms: number, signal: AbortSignal): Promise<boolean> {
    await this.listen();
    if (this.value !== seen) return true;
    if (signal.aborted) return false;
    return new Promise<boolean>((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(wake);
        resolve(woken);
      };
      const wake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal.addEventListener('abort', onAbort);
      this.waiters.add(wake);
    });
  }

  /** Starts listening (once); a lost connection is replaced on the next wait, after waking everyone to rescan. */
  private listen(): Promise<void> {
    if (this.connection || this.stopped) return Promise.resolve();
    this.starting ??= (async () => {
      const conn = (await this.db.client.acquireConnection()) as PgConnection;
      conn.on('notification', (msg) => {
        if (msg.channel === JOBS_PENDING_CHANNEL && msg.payload === this.schema) this.tick();
      });
      const lost = (e?: unknown) => {
        if (this.connection !== conn) return;
        this.log.warn('job queue listener lost its connection', { err: String(e) });
        this.connection = null;
        void this.db.client.releaseConnection(conn).catch(() => undefined);
        this.tick();
      };
      conn.on('error', lost);
      conn.on('end', lost);
      await conn.query(`LISTEN ${JOBS_PENDING_CHANNEL}`);
      this.connection = conn;
    })().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** Stops listening and wakes every waiter (they answer 204). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => undefined);
    const conn = this.connection;
    this.connection = null;
    this.tick();
    if (!conn) return;
    await conn.query(`UNLISTEN ${JOBS_PENDING_CHANNEL}`).catch(() => undefined);
    conn.removeAllListeners('notification');
    await this.db.client.releaseConnection(conn);
  }
}

const wakers = new WeakMap<Knex, JobQueueWaker>();

/** The waker of the service whose database is `db` (one per service instance). */
export function queueWakerOf(db: Knex, schema: string, log: Logger): JobQueueWaker {
  let w = wakers.get(db);
  if (!w) wakers.set(db, (w = new JobQueueWaker(db, schema, log)));
  return w;
}

/** Stops the waker of `db`, if it has one (service shutdown). */
export async function stopQueueWaker(db: Knex): Promise<void> {
  await wakers.get(db)?.stop();
  wakers.delete(db);
}
