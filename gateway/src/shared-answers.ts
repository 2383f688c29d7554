/** One kept answer: what to send again, and until when (ms since the epoch). */
export interface SharedAnswer {
  status: number;
  /** The client headers without the per-request ones (X-Request-Id, security headers). */
  headers: string[];
  body: Buffer;
  until: number;
}

/** Largest answer body kept. */
export const SHARED_ANSWER_MAX_BYTES = 16 * 1024;
const MAX_ENTRIES = 1000;

/**
 * Answers services marked as the same for every caller (`x-anvil-shared-answer`), by method and
 * forwarded path (with query), each for the seconds its service named. At most MAX_ENTRIES; emptied
 * when full.
 */
export class SharedAnswers {
  private readonly answers = new Map<string, SharedAnswer>();

  get(key: string, now = Date.now()): SharedAnswer | undefined {
    const a = this.answers.get(key);
    if (a && a.until <= now) {
      this.answers.delete(key);
      return undefined;
    }
    return a;
  }

  set(key: string, answer: SharedAnswer): void {
    if (answer.body.length > SHARED_ANSWER_MAX_BYTES) return;
    if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
    this.answers.set(key, answer);
  }

  get size(): number {
    return this.answers.size;
  }
}
