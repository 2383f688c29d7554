import { KeptAnswers, SHARED_ANSWER_MAX_BYTES } from './shared-answers';

/** One kept answer: the status and client headers, the body or the object to send, and its validity. */
export interface ReusedAnswer {
  status: number;
  /** The client headers without the per-request ones (without a length for an object to send). */
  headers: string[];
  /** A send-file answer: the storage key the service named. */
  file?: string;
  /** Otherwise: the body as the service sent it. */
  body?: Buffer;
  until: number;
  /** The project's write generation when the request that produced it was sent. */
  generation: number;
  project: number | null;
}

const MAX_ENTRIES = 10_000;
/** Largest answer body kept (the same bound as for shared answers). */
export const REUSED_BODY_MAX_BYTES = SHARED_ANSWER_MAX_BYTES;

/**
 * Answers a service marked reusable (`x-anvil-reusable-answer`), by forwarded path and signed context
 * (without request id and expiry): the same request from the same caller, with the same rights, gets
 * the same answer — a small body, or a stored object — for the seconds the service named, without
 * asking it again.
 *
 * What can make a kept answer wrong is a write to the service's data for that project. Every write
 * the gateway forwards bumps the project's generation (when sent and when answered), and so does a
 * service event from another replica; an answer is kept only if no write to its project was sent
 * since the request that produced it was, and given only while its project is at that generation.
 * Writes without a project (instance-level routes) bump every project. The object itself is opened
 * anew on every use: when it is gone (replaced or deleted, which deletes it) the caller forwards the
 * request instead. At most MAX_ENTRIES; emptied when full.
 */
export class ReusedAnswers {
  private readonly answers = new KeptAnswers<ReusedAnswer>(MAX_ENTRIES);
  private readonly generations = new Map<number, number>();
  /** Bumped by writes without a project: every project's generation counts from it. */
  private global = 0;
  /** Whether no write to an answer's project was sent since its request was. */
  private readonly unwritten = (a: ReusedAnswer): boolean => a.generation === this.generation(a.project);

  /** The generation of `project` now (to record when a request is sent). */
  generation(project: number | null): number {
    return this.global + (project === null ? 0 : (this.generations.get(project) ?? 0));
  }

  /** The kept answer for `key`, if still valid (in time, and its project not written since). */
  get(key: string, now = Date.now()): ReusedAnswer | undefined {
    return this.answers.get(key, now, this.unwritten);
  }

  /** Keeps an answer to a request sent at `answer.generation`, unless a write was sent since. */
  set(key: string, answer: ReusedAnswer): void {
    if (this.unwritten(answer)) this.answers.set(key, answer);
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
}
