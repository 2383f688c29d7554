import type { Request } from 'express';
import { HttpError } from '@anvil/http';

/**
 * GitLab's `destroy_conditionally!`: with `If-Unmodified-Since`, a resource changed after that time
 * (compared in whole seconds) answers `412 Precondition Failed`. An unparseable header is ignored.
 */
export function checkUnmodifiedSince(req: Request, changedAt: Date): void {
  const h = req.get('if-unmodified-since');
  if (!h) return;
  const since = Date.parse(h);
  if (Number.isNaN(since)) return;
  if (Math.floor(changedAt.getTime() / 1000) > Math.floor(since / 1000)) throw new HttpError(412, { message: '412 Precondition Failed' });
}
