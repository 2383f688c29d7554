import type { NextFunction, Request, Response } from 'express';
import { ctx, NotFoundError, UnauthorizedError } from '@anvil/http';
import { callerOf, insufficientScope, scopeAllows } from '../auth/policy';

/**
 * What GitLab checks before every Conan route, in its order: FIPS mode → 404; a credential without
 * the scope for this method → 403 insufficient_scope; a non-GET request without a user → 401.
 */
export function conanGuard(fipsMode: boolean) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (fipsMode) return next(new NotFoundError());
    const caller = callerOf(ctx(req));
    if (caller.user && !scopeAllows(caller.scopes, req.method)) return next(insufficientScope(req.method));
    if (!caller.user && req.method !== 'GET' && req.method !== 'HEAD') return next(new UnauthorizedError());
    next();
  };
}
