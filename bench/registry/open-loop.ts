import { Connection, head, written } from './raw-client';

/** As many connections at once as the latency runs' Node agent allowed before. */
const MAX_CONNECTIONS = 256;

/**
 * The latency runs' client: GETs sent on schedule whatever the answers do (open loop), each on an idle
 * kept connection or a new one, over the throughput client's plain sockets (`raw-client.ts`). Node's
 * http client, used before, allocated a request object, header maps and a body array per request: at
 * 5,000 requests per second it took twice this client's CPU on a 2-core machine, beside the server
 * measured, and its event loop stalled for up to ~40 ms (young collections of 3–7 ms among the
 * causes). Latency counts from when a request was due, so its stalls were measured as the server's.
 */
class Pool {
  private readonly idle: Connection[] = [];
  private readonly waiting: ((c: Connection) => void)[] = [];
  private open = 0;
  private readonly request: Buffer;

  constructor(
    private readonly url: URL,
    headers: Record<string, string>,
  ) {
    this.request = Buffer.from(head('GET', url, headers), 'latin1');
  }

  /**
   * An idle connection, a new one while fewer than `MAX_CONNECTIONS` are open, or the next one to come
   * free (as Node's agent with `maxSockets` queues requests).
   */
  private take(): Connection | Promise<Connection> {
    for (let c = this.idle.pop(); c; c = this.idle.pop()) {
      // one the server closed while it was idle is dropped
      if (c.socket.writable) return c;
      this.open--;
    }
    if (this.open < MAX_CONNECTIONS) return this.connect();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private connect(): Connection {
    this.open++;
    return new Connection(this.url.hostname, Number(this.url.port || 80));
  }

  private release(c: Connection, keep: boolean): void {
    if (!keep) {
      c.socket.destroy();
      this.open--;
    }
    const next = this.waiting.shift();
    if (next) next(keep ? c : this.connect());
    else if (keep) this.idle.push(c);
  }

  /** Sends the request on a connection from `take`; resolves with the answer's status. */
  async get(): Promise<number> {
    const c = await this.take();
    const answered = new Promise<{ status: number }>((resolve, reject) => c.reader.expect({ resolve, reject }));
    answered.catch(() => undefined);
    try {
      await written(c.socket, this.request);
      const { status } = await answered;
      // gunicorn's sync workers close after each answer: such a connection is not kept
      this.release(c, c.reader.keepAlive && c.socket.writable);
      return status;
    } catch (e) {
      this.release(c, false);
      throw e;
    }
  }

  close(): void {
    for (const c of this.idle.splice(0)) c.socket.destroy();
    this.open = 0;
  }
}

/**
 * Sends `rate` GETs per second for `seconds` (open loop: requests start on schedule whatever the answers
 * do) and returns latency percentiles in ms and the achieved rate. A request sent late counts from when
 * it was due; one sent up to 1 ms early (timers have 1 ms resolution) from when it was sent.
 */
export async function openLoop(href: string, headers: Record<string, string>, rate: number, seconds: number) {
  const pool = new Pool(new URL(href), headers);
  const total = rate * seconds;
  const lat = new Float64Array(total);
  let done = 0;
  let errors = 0;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const from = Math.min(due, performance.now());
    inflight.push(
      pool.get().then(
        (status) => {
          lat[done++] = performance.now() - from;
          if (status !== 200) errors++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  pool.close();
  const sorted = lat.subarray(0, done).sort();
  const pct = (q: number) => (done ? sorted[Math.min(done - 1, Math.floor(q * done))] : NaN);
  return { sent: total, achieved: Math.round(total / elapsed), errors, p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: done ? sorted[done - 1] : NaN };
}
