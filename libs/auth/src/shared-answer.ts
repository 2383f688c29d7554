/**
 * Response header by which a service tells the gateway that an answer depends on nothing but the
 * request's method and path (not on who asks, nor on anything that changes while the service runs),
 * so the gateway may give the same answer to any caller for the seconds named: `max-age=<n>`. Only
 * small `200` answers to `GET` are kept. Conan's `ping` is the one such answer today.
 */
export const SHARED_ANSWER_HEADER = 'x-anvil-shared-answer';

/**
 * Response header by which a service tells the gateway that an answer to a `GET` holds, for
 * `max-age=<n>` seconds, for the same path asked with the same signed context (every field but `rid`
 * and `exp`: the same caller with the same rights), as long as the service's data for the project is
 * not written (the gateway drops it on any write it forwards, and on the service's events) and, for an
 * `x-anvil-send-file` answer, the named object still exists (replacing or deleting a file deletes its
 * object). The gateway gives it again without asking the service: a small `200` body as it was, a
 * send-file answer from storage. Conan v2 file downloads and `users/authenticate` are such answers.
 */
export const REUSABLE_ANSWER_HEADER = 'x-anvil-reusable-answer';

/** The seconds an answer may be reused (this header or REUSABLE_ANSWER_HEADER), or null when the value is not `max-age=<1..3600>`. */
export function sharedAnswerMaxAge(value: unknown): number | null {
  const m = typeof value === 'string' ? /^max-age=(\d{1,4})$/.exec(value.trim()) : null;
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= 3600 ? n : null;
}
