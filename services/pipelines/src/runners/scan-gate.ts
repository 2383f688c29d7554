/**
 * Bounds how many job-queue scans run at once in this process: a job becoming pending wakes every
 * held runner request, and letting them all take database connections at once would delay the one
 * scan that claims the job. Waiting scans start in arrival order (the longest-held runners first).
 */
export class ScanGate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Runs `fn` when fewer than `limit` scans are running. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}
