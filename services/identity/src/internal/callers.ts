import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { isPlaceholderSecret } from '@anvil/config';
import { HttpError } from '@anvil/http';

/** The routes of `/internal` each calling service needs (method and path under `/internal`, `:x` one segment). */
export const CALLER_ROUTES: Record<string, readonly string[]> = {
  gateway: ['POST /v1/tokens/resolve', 'GET /v1/users/lookup', 'GET /v1/projects/resolve', 'GET /v1/groups/resolve'],
  registry: ['POST /v1/tokens/resolve', 'GET /v1/projects/resolve', 'GET /v1/projects/readable'],
  pipelines: ['GET /v1/projects/resolve', 'GET /v1/groups/resolve'],
  'project-transfer': ['GET /v1/projects/resolve', 'GET /v1/transfer/projects/:id', 'POST /v1/transfer/projects', 'POST /v1/transfer/users/by-email'],
};

interface Caller {
  name: string;
  digest: Buffer;
  /** null: every route (the shared token, when no per-caller tokens are configured). */
  routes: RegExp[] | null;
}

const CALLER = Symbol('internal caller');
type WithCaller = Request & { [CALLER]?: Caller };

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function routeRegex(route: string): RegExp {
  const [method, path] = route.split(' ');
  const pattern = path.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return new RegExp(`^${method} ${pattern}/?$`);
}

/**
 * Who calls identity's internal API. With `INTERNAL_API_TOKENS` (a JSON object: calling service →
 * its token) each caller is known by its own token and may call only its routes (`CALLER_ROUTES`);
 * without it, the shared `INTERNAL_API_TOKEN` may call every route. Tokens are compared as SHA-256
 * digests in constant time, each against every known caller.
 */
export class InternalCallers {
  private readonly callers: Caller[];

  constructor(sharedToken: string, perCaller?: string) {
    if (!perCaller) {
      this.callers = [{ name: 'shared', digest: digest(sharedToken), routes: null }];
      return;
    }
    let map: unknown;
    try {
      map = JSON.parse(perCaller);
    } catch {
      throw new Error('INTERNAL_API_TOKENS is invalid: expected a JSON object of service name → token');
    }
    if (!map || typeof map !== 'object' || Array.isArray(map)) throw new Error('INTERNAL_API_TOKENS is invalid: expected a JSON object of service name → token');
    this.callers = Object.entries(map as Record<string, unknown>).map(([name, token]) => {
      const routes = CALLER_ROUTES[name];
      if (!routes) throw new Error(`INTERNAL_API_TOKENS is invalid: unknown caller ${JSON.stringify(name)} (known: ${Object.keys(CALLER_ROUTES).join(', ')})`);
      if (typeof token !== 'string' || token.length < 16 || isPlaceholderSecret(token)) throw new Error(`INTERNAL_API_TOKENS is invalid: the token of ${name} must be a string of 16 characters at least, not a placeholder`);
      return { name, digest: digest(token), routes: routes.map(routeRegex) };
    });
    const digests = new Set(this.callers.map((c) => c.digest.toString('hex')));
    if (digests.size !== this.callers.length) throw new Error('INTERNAL_API_TOKENS is invalid: every caller needs its own token');
  }

  /** The `internalAuth` of the service app: true when `given` is a known caller's token (remembered on the request). */
  readonly authenticate = (given: string, req: Request): boolean => {
    const d = digest(given);
    let found: Caller | undefined;
    for (const c of this.callers) if (timingSafeEqual(d, c.digest) && !found) found = c;
    if (found) (req as WithCaller)[CALLER] = found;
    return found !== undefined;
  };

  /** Middleware of the internal router: a caller calling a route it does not need gets 403. */
  readonly authorize = (req: Request, _res: Response, next: NextFunction): void => {
    const caller = (req as WithCaller)[CALLER];
    if (!caller) return next(new HttpError(401, { message: '401 Unauthorized' }));
    if (caller.routes && !caller.routes.some((r) => r.test(`${req.method} ${req.path}`))) return next(new HttpError(403, { message: '403 Forbidden' }));
    next();
  };
}
