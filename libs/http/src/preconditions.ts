import type { Request } from 'express';
import { HttpError } from './errors';

/**
 * GitLab's `destroy_conditionally!`: with `If-Unmodified-Since`, a resource changed after that time
 * answers `412 Precondition Failed` (compared to the second). An unparseable header is ignored.
 */
export function checkUnmodifiedSince(req: Request, changedAt: Date): void {
  const header = req.get('if-unmodified-since');
  if (!header) return;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return;
  if (Math.floor(changedAt.getTime() / 1000) > Math.floor(since / 1000)) throw new HttpError(412, { message: '412 Precondition Failed' });
}
