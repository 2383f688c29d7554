/**
 * Answers the gateway gives again without asking the service, as the service allowed:
 * - shared (`x-anvil-shared-answer`): the same for every caller, kept by service and forwarded path;
 * - reused (`x-anvil-reusable-answer`): the same for the same caller with the same rights, kept by
 *   forwarded path and signed context (without request id and expiry), on routes whose entry says so.
 *
 * What can make a reused answer wrong is a write to the service's data for its project. Every write the
 * gateway forwards on such routes bumps the project's generation (when sent and when answered), and so
 * does the service's event from another replica; an answer is kept only if no write to its project was
 * sent since the request that produced it was, and given only while its project is at that generation.
 * Writes without a project bump every project. A send-file answer's object is opened anew on every use:
 * when it is gone (replaced or deleted) the request is forwarded instead.
 */

/** One kept answer: the status and client headers, the body or the object to send, and its validity. */
export interface KeptAnswer {
  status: number;
  /** The client headers without the per-request ones (without a length for an object to send). */
  headers: string[];
  /** The body as the service sent it. */
  body?: Buffer;
  /** A send-file answer: the storage key the service named. */
  file?: string;
  /** Until when it holds (ms since the epoch). */
  until: number;
  /** The project's write generation when its request was sent; absent, no write concerns it (shared). */
  generation?: number;
  project?: number | null;
}

/** Largest answer body kept (the proxy stops collecting one past it). */
export const KEPT_BODY_MAX_BYTES = 16 * 1024;
/** How many shared answers are kept at most. */
export const SHARED_ANSWERS_MAX = 1000;
/** How many reused answers are kept at most. */
export const REUSED_ANSWERS_MAX = 10_000;

/**
 * Answers kept by key until their time is up, and, for those with a generation, while no write to
 * their project was sent since their request was. None with a body over KEPT_BODY_MAX_BYTES; at most
 * `maxEntries` (emptied when full).
 */
export class KeptAnswers {
  private readonly answers = new Map<string, KeptAnswer>();
  private readonly generations = new Map<number, number>();
  /** Bumped by writes without a project: every project's generation counts from it. */
  private global = 0;

  constructor(private readonly maxEntries: number) {}

  /** The generation of `project` now (to record when a request is sent). */
  generation(project: number | null | undefined): number {
    return this.global + (project == null ? 0 : (this.generations.get(project) ?? 0));
  }

  /** The answer for `key` while its time runs and its project was not written since; otherwise it is forgotten. */
  get(key: string, now = Date.now()): KeptAnswer | undefined {
    const a = this.answers.get(key);
    if (!a) return undefined;
    if (a.until <= now || !this.unwritten(a)) {
      this.answers.delete(key);
      return undefined;
    }
    return a;
  }

  /** Keeps an answer, unless its body is over the bound or a write to its project was sent since its request. */
  set(key: string, answer: KeptAnswer): void {
    if (answer.body && answer.body.length > KEPT_BODY_MAX_BYTES) return;
    if (!this.unwritten(answer)) return;
    if (this.answers.size >= this.maxEntries) this.answers.clear();
    this.answers.set(key, answer);
  }

  /** Forgets one answer (its object was gone). */
  delete(key: string): void {
    this.answers.delete(key);
  }

  /** A write to `project`'s data (null: no project, or unknown) was sent or answered. */
  written(project: number | null): void {
    if (project === null) this.global++;
    else this.generations.set(project, (this.generations.get(project) ?? 0) + 1);
  }

  /** Forgets everything (rights may have changed). */
  clear(): void {
    this.answers.clear();
    this.global++;
  }

  get size(): number {
    return this.answers.size;
  }

  private unwritten(a: KeptAnswer): boolean {
    return a.generation === undefined || a.generation === this.generation(a.project);
  }
}
