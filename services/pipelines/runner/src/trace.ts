import type { JobPayload, RunnerClient } from './client';

/**
 * A job's log on its way to Anvil: output is buffered and sent every `intervalMs` as
 * `PATCH /jobs/:id/trace` with `Content-Range`; a 416 resumes from the offset the server holds.
 * `onAbort` is called when the server says the job is no longer running (403, or a status that is
 * not running).
 */
export class TraceStream {
  private pending: Buffer[] = [];
  private sent = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();
  private all: Buffer[] = [];

  constructor(
    private readonly client: RunnerClient,
    private readonly job: JobPayload,
    private readonly intervalMs: number,
    private readonly onAbort: () => void,
  ) {}

  /** Adds output. */
  write(chunk: Buffer | string): void {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.pending.push(b);
    this.all.push(b);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.intervalMs);
  }

  /** Sends what is buffered (after what is being sent). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sending = this.sending.then(() => this.send()).catch(() => undefined);
    return this.sending;
  }

  private async send(): Promise<void> {
    if (this.pending.length === 0) return;
    const body = Buffer.concat(this.pending);
    this.pending = [];
    let r = await this.client.patchTrace(this.job, this.sent, body);
    if (r.status === 416 && r.end !== null) {
      // the server holds less (or more) than we think: resend from its end
      const whole = Buffer.concat(this.all);
      this.sent = Math.min(r.end, whole.length);
      r = await this.client.patchTrace(this.job, this.sent, whole.subarray(this.sent));
    }
    if (r.status === 202) this.sent = r.end ?? this.sent + body.length;
    if (r.status === 403 || (r.jobStatus && r.jobStatus !== 'running')) this.onAbort();
  }
}
