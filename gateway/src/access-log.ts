import { type BufferedDestination, createLogger, type Destination, type Logger } from '@anvil/log';

/** One access-log record: what the gateway did with a request. */
export type AccessRecord = {
  method: string;
  path: string;
  status: number;
  ms: number;
  rid: string;
  user: number | null;
  service: string | null;
};

/**
 * The access log: one JSON line per request through the fleet's logger (`"msg":"request"` and the
 * record's fields, the request id as `rid`). It writes to a destination that batches lines (see
 * `bufferedStdout`), so logging does not dominate CPU on the hot path; `flush()` writes what is
 * pending, and the gateway calls it when it stops.
 */
export class AccessLog {
  private readonly log: Logger | null;

  /** `out` null: the log is off. */
  constructor(
    private readonly out: Destination | BufferedDestination | null,
    svc = 'gateway',
  ) {
    this.log = out ? createLogger(svc, 'info', { destination: out }) : null;
  }

  /** Records one request (no-op when the log is off). */
  write(r: AccessRecord): void {
    this.log?.info('request', r);
  }

  /** Writes what is pending, synchronously. A log that cannot be written does not stop the gateway. */
  flush(): void {
    try {
      (this.out as Partial<BufferedDestination> | null)?.flushSync?.();
    } catch {
      // nowhere left to report it: the log is the one thing that failed
    }
  }
}
