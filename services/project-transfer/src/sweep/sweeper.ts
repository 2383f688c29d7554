import type { Knex } from 'knex';
import type { Logger } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { assembleOnce, type AssembleDeps } from '../exports/part-consumer';
import { type AfterCommit, cleanUp, type StallLimits, SWEEP_BATCH, sweepExports, sweepImports, sweepRelationImports } from './stuck-jobs';

/** What a sweep needs. */
export interface SweepDeps {
  db: Knex;
  storage: Storage;
  log: Logger;
  limits: StallLimits;
  /** How an export whose parts are all in gets its archive. */
  assemble: AssembleDeps;
}

/** What one sweep did, per kind of job. */
export interface SweepResult {
  exports: { redriven: number; failed: number };
  imports: { redriven: number; failed: number };
  relationImports: { redriven: number; failed: number };
}

type Pass = (trx: Knex.Transaction, limits: StallLimits, after: AfterCommit) => Promise<{ redriven: number; failed: number }>;

/** Runs `pass` in transactions of `SWEEP_BATCH` claimed jobs until fewer are stalled; then its storage cleanup and assembling. */
async function drain(deps: SweepDeps, pass: Pass): Promise<{ redriven: number; failed: number }> {
  const total = { redriven: 0, failed: 0 };
  for (;;) {
    const after: AfterCommit = { cleanup: [], assemble: [] };
    const done = await deps.db.transaction((trx) => pass(trx, deps.limits, after));
    total.redriven += done.redriven;
    total.failed += done.failed;
    await cleanUp(deps.storage, after.cleanup);
    for (const jobId of after.assemble) {
      // an archive that cannot be written now is tried again at the next stall, up to the limit
      await assembleOnce(deps.assemble, jobId).catch((e: unknown) => deps.log.warn('re-driven export not assembled', { export_id: jobId, error: e instanceof Error ? e.message : String(e) }));
    }
    if (done.redriven + done.failed < SWEEP_BATCH) return total;
  }
}

/**
 * One sweep over the running exports, imports and relation imports: each job without progress for
 * `stallSeconds` is re-driven (its request re-published through the outbox, the counter raised), or
 * failed once expired or re-driven `maxRedrives` times. Safe beside other sweeps (other replicas):
 * a job is claimed with `FOR UPDATE SKIP LOCKED` and its re-drive is new progress, so it is re-driven
 * once per stall.
 */
export async function sweepStuckJobs(deps: SweepDeps): Promise<SweepResult> {
  const result: SweepResult = {
    exports: await drain(deps, sweepExports),
    imports: await drain(deps, sweepImports),
    relationImports: await drain(deps, sweepRelationImports),
  };
  const acted = Object.values(result).some((r) => r.redriven || r.failed);
  if (acted) deps.log.warn('stalled transfer jobs re-driven or failed', { ...result });
  return result;
}

/** Runs `sweepStuckJobs` every `intervalMs` in a worker process, one pass at a time. */
export class StuckJobSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly deps: SweepDeps,
    private readonly intervalMs: number,
  ) {}

  /** Starts the schedule; the first pass runs one interval from now. */
  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = sweepStuckJobs(this.deps)
        .catch((e: unknown) => this.deps.log.warn('stuck transfer job sweep failed', { error: e instanceof Error ? e.message : String(e) }))
        .finally(() => (this.running = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a pass under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
