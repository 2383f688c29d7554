import type { Knex } from 'knex';

/** How a batcher stores its jobs: all of a batch in one transaction, or one alone. */
export interface BatchHandler<J, R> {
  /** Stores the jobs of a batch in `trx`, returning one result per job in their order; a throw rolls the batch back. */
  batch(trx: Knex.Transaction, jobs: J[]): Promise<R[]>;
  /** Stores one job in a transaction of its own, after its batch was rolled back; a throw fails this job only. */
  alone(trx: Knex.Transaction, job: J): Promise<R>;
}

interface Queued<J, R> {
  job: J;
  resolve(value: R): void;
  reject(err: unknown): void;
}

/**
 * Group commit: the jobs queued while a batch is in flight are stored together in the next
 * transaction, and each caller is answered only after that transaction has committed (an answer
 * means the work is durable; the batch pays one commit and one WAL flush instead of one per job).
 * No job waits for a timer: a job that finds fewer than `maxInFlight` batches in flight starts one.
 * When a batch throws (a deadlock with another replica, a stale key, a failing statement), it is
 * rolled back and each of its jobs is stored alone, so a failing job fails only itself.
 */
export class CommitBatcher<J, R> {
  private readonly queue: Queued<J, R>[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Knex,
    private readonly handler: BatchHandler<J, R>,
    private readonly opts: { maxJobs: number; maxInFlight: number },
  ) {}

  /** Queues `job`; resolves with its result once its transaction has committed. */
  run(job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.opts.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.opts.maxJobs);
      this.inFlight += 1;
      void this.commit(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async commit(batch: Queued<J, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await this.db.transaction((trx) => this.handler.batch(trx, batch.map((q) => q.job)));
    } catch {
      await Promise.all(batch.map(async (q) => {
        try {
          q.resolve(await this.db.transaction((trx) => this.handler.alone(trx, q.job)));
        } catch (err) {
          q.reject(err);
        }
      }));
      return;
    }
    batch.forEach((q, i) => q.resolve(results[i]));
  }
}
