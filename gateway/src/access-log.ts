/** One access-log record: what the gateway did with a request. */
export interface AccessRecord {
  method: string;
  path: string;
  status: number;
  ms: number;
  rid: string;
  user: number | null;
  service: string | null;
}

/**
 * Structured JSON access log, one line per request, buffered and written in batches (every
 * `intervalMs`, or as soon as 64 KiB are pending) so that logging does not dominate CPU: one write
 * system call per batch instead of one per request.
 */
export class AccessLog {
  private buf: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly out: NodeJS.WritableStream | null,
    private readonly intervalMs = 100,
    private readonly svc = 'gateway',
  ) {}

  /** Records one request (no-op when the log is off). */
  write(r: AccessRecord): void {
    if (!this.out) return;
    const line = `{"time":"${new Date().toISOString()}","level":"info","svc":"${this.svc}","msg":"request","method":"${r.method}","path":${JSON.stringify(r.path)},"status":${r.status},"ms":${r.ms},"rid":${JSON.stringify(r.rid)},"user":${r.user},"service":${r.service ? `"${r.service}"` : 'null'}}\n`;
    this.buf.push(line);
    this.bytes += line.length;
    if (this.bytes >= 65536) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what is pending. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.buf.length || !this.out) return;
    const chunk = this.buf.join('');
    this.buf = [];
    this.bytes = 0;
    this.out.write(chunk);
  }
}
