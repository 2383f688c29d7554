import { RunnerClient } from './client';
import type { RunnerConfig } from './config';
import { runJob, type JobOutcome } from './job';

/** How long to wait before asking again after a failed request (ms). */
const RETRY_MS = 3000;

/** Something to tell the operator. */
export type Log = (msg: string) => void;

/**
 * The runner's main loop: verify the token, then long-poll `POST /jobs/request` and run each job it
 * is given, one at a time. `stop()` ends the poll at once and lets a running job finish for
 * `shutdownGraceMs` before it is stopped and reported failed; it resolves when the loop has ended.
 */
export class Runner {
  readonly client: RunnerClient;
  private readonly stopping = new AbortController();
  private readonly killJob = new AbortController();
  private loop: Promise<void> | null = null;
  /** Outcomes of the jobs run so far, by job id. */
  readonly outcomes = new Map<number, JobOutcome>();

  constructor(private readonly config: RunnerConfig, private readonly log: Log = (m) => console.log(m)) {
    this.client = new RunnerClient(config.url, config.token, config.name);
  }

  /** Verifies the token (throws when refused) and starts polling. */
  async start(): Promise<number> {
    const id = await this.client.verify();
    this.log(`runner ${id} verified against ${this.config.url}`);
    this.loop = this.poll();
    return id;
  }

  private async poll(): Promise<void> {
    let lastUpdate: string | undefined;
    while (!this.stopping.signal.aborted) {
      try {
        const r = await this.client.requestJob(lastUpdate, this.stopping.signal);
        lastUpdate = r.lastUpdate;
        if (!r.job) continue;
        this.log(`job ${r.job.id} (${r.job.job_info.name}) received`);
        const outcome = await runJob(this.client, this.config, r.job, this.killJob.signal);
        this.outcomes.set(r.job.id, outcome);
        this.log(`job ${r.job.id} ${outcome.state}`);
      } catch (e) {
        if (this.stopping.signal.aborted) break;
        this.log(`request failed: ${e instanceof Error ? e.message : String(e)}; retrying`);
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  /** Stops polling; a running job gets `shutdownGraceMs` to finish, then is stopped and reported failed. */
  async stop(): Promise<void> {
    this.stopping.abort();
    const grace = setTimeout(() => this.killJob.abort(), this.config.shutdownGraceMs);
    await this.loop;
    clearTimeout(grace);
  }
}
