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
 * Structured JSON access log, one line per request, buffered and written in batches (at most once
 * per event-loop turn, or when 64 KiB are pending) so that logging does not dominate CPU.
 */
export class AccessLog {
  private buf: string[] = [];
  private bytes = 0;
  private scheduled = false;

  constructor(
    private readonly out: NodeJS.WritableStream | null,
    private readonly svc = 'gateway',
  ) {}

  /** Records one request (no-op when the log is off). */
  write(r: AccessRecord): void {
    if (!this.out) return;
    const line = `{"time":"${new Date().toISOString()}","level":"info","svc":"${this.svc}","msg":"request","method":"${r.method}","path":${JSON.stringify(r.path)},"status":${r.status},"ms":${r.ms},"rid":${JSON.stringify(r.rid)},"user":${r.user},"service":${r.service ? `"${r.service}"` : 'null'}}\n`;
    this.buf.push(line);
    this.bytes += line.length;
    if (this.bytes >= 65536) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is pending. */
  flush(): void {
    this.scheduled = false;
    if (!this.buf.length || !this.out) return;
    const chunk = this.buf.join('');
    this.buf = [];
    this.bytes = 0;
    this.out.write(chunk);
  }
}
