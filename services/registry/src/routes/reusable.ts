import type { Response } from 'express';
import { REUSABLE_ANSWER_HEADER } from '@anvil/auth';

/** How long the gateway may give a reusable answer again to the same caller. */
export const REUSE_SECONDS = 10;

/**
 * Marks an answer as the same for the same caller (same path, same signed context) for REUSE_SECONDS,
 * while the project's packages are not written: the gateway then answers without asking again
 * (`REUSABLE_ANSWER_HEADER` in @anvil/auth). Only for answers that depend on nothing else.
 */
export function markReusable(res: Response): void {
  res.setHeader(REUSABLE_ANSWER_HEADER, `max-age=${REUSE_SECONDS}`);
}
