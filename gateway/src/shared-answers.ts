/** One kept answer: what to send again, and until when (ms since the epoch). */
export interface SharedAnswer {
  status: number;
  /** The client headers without the per-request ones (X-Request-Id, security headers). */
  headers: string[];
  body: Buffer;
  until: number;
}

/** Largest answer body kept, shared or reused (the proxy stops collecting one past it). */
export const SHARED_ANSWER_MAX_BYTES = 16 * 1024;
const MAX_ENTRIES = 1000;

/**
 * Answers kept by key until their time is up: none with a body over SHARED_ANSWER_MAX_BYTES, at most
 * `maxEntries` (emptied when full).
 */
export class KeptAnswers<A extends { until: number; body?: Buffer }> {
  private readonly answers = new Map<string, A>();

  constructor(private readonly maxEntries: number) {}

  /** The answer for `key` while its time runs and `valid` holds for it; otherwise it is forgotten. */
  get(key: string, now = Date.now(), valid?: (a: A) => boolean): A | undefined {
    const a = this.answers.get(key);
    if (!a) return undefined;
    if (a.until <= now || (valid && !valid(a))) {
      this.answers.delete(key);
      return undefined;
    }
    return a;
  }

  set(key: string, answer: A): void {
    if (answer.body && answer.body.length > SHARED_ANSWER_MAX_BYTES) return;
    if (this.answers.size >= this.maxEntries) this.answers.clear();
    this.answers.set(key, answer);
  }

  delete(key: string): void {
    this.answers.delete(key);
  }

  clear(): void {
    this.answers.clear();
  }

  get size(): number {
    return this.answers.size;
  }
}

/**
 * Answers services marked as the same for every caller (`x-anvil-shared-answer`), by method and
 * forwarded path (with query), each for the seconds its service named. At most MAX_ENTRIES; emptied
 * when full.
 */
export class SharedAnswers extends KeptAnswers<SharedAnswer> {
  constructor() {
    super(MAX_ENTRIES);
  }
}
