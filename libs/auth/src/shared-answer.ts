/**
 * Response header by which a service tells the gateway that an answer depends on nothing but the
 * request's method and path (not on who asks, nor on anything that changes while the service runs),
 * so the gateway may give the same answer to any caller for the seconds named: `max-age=<n>`. Only
 * small `200` answers to `GET` are kept. Conan's `ping` is the one such answer today.
 */
export const SHARED_ANSWER_HEADER = 'x-anvil-shared-answer';

/** The seconds an answer may be reused (this header, `x-anvil-send-file-reuse`), or null when the value is not `max-age=<1..3600>`. */
export function sharedAnswerMaxAge(value: unknown): number | null {
  const m = typeof value === 'string' ? /^max-age=(\d{1,4})$/.exec(value.trim()) : null;
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= 3600 ? n : null;
}
