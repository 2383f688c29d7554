import express, { NextFunction, Request, Response, Router } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import qs from 'qs';
import { CONTEXT_HEADER, constantTimeEqual, ContextError, ContextExpiredError, ContextVerifier, INTERNAL_TOKEN_HEADER, RequestContext } from '@anvil/auth';
import { ErrorTranslator, HttpError, ServiceUnavailableError, UnauthorizedError } from './errors';
import { createLogger, Logger } from '@anvil/log';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The verified gateway context (set on /api/v4 routes). */
      anvil?: RequestContext;
      /** This request's logger: every line carries its request id (`rid`) when it has one. */
      log: Logger;
    }
  }
}

/** The verified context of a request under /api/v4; throws if the route is not behind verification. */
export function ctx(req: Request): RequestContext {
  if (!req.anvil) throw new Error('no request context: route is not mounted under /api/v4');
  return req.anvil;
}

export interface ServiceAppOptions {
  name: string;
  /** Verifies the gateway's signed header; requests under /api/v4 without a valid one get 401. */
  verifier: ContextVerifier;
  /** Shared service token for /internal routes (absent: /internal answers 404). */
  internalToken?: string;
  /** Mounts the public routes (under /api/v4). */
  api?: (router: Router) => void;
  /** Mounts service-to-service routes (under /internal). */
  internal?: (router: Router) => void;
  /** Readiness: true when the service can take traffic (db reachable, migrated, bus connected). */
  readiness?: () => Promise<boolean>;
  /** Turns domain/database errors into HttpErrors (e.g. Postgres SQLSTATEs). */
  errorTranslators?: ErrorTranslator[];
  /** The app's logger, parent of each request's `req.log` (default: `createLogger(name)`). */
  logger?: Logger;
  /** Maximum JSON/form body size (file uploads stream and are not parsed). */
  bodyLimit?: string;
  /** Requests whose body is a file to stream: the JSON and form parsers leave it unread, whatever its Content-Type. */
  streamBody?: (req: Request) => boolean;
  /**
   * Decides who may call /internal instead of the shared `internalToken` (given: the request's
   * `x-anvil-internal-token`, or ''); false answers 401.
   */
  internalAuth?: (given: string, req: Request) => boolean;
  /** Further registries `/metrics` serves after the app's own (e.g. the service's event metrics). */
  metrics?: Registry[];
}

/** True when the request announces a body (type-is's `hasBody`: a Transfer-Encoding or a numeric Content-Length). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/**
 * Parses JSON (empty body → `{}`), urlencoded, leaves other bodies (uploads) unread as streams. One
 * middleware: a request without a body (most GETs) skips both parsers, which would leave it untouched.
 */
export function bodyParsers(streamBody: (req: Request) => boolean = () => false): express.RequestHandler[] {
  const json = express.json({ limit: '10mb', strict: false, type: ['application/json', 'application/*+json'] });
  const form = express.urlencoded({ extended: true, limit: '10mb' });
  const done = (req: Request, next: NextFunction) => {
    if (req.body === undefined) req.body = {};
    next();
  };
  const parsed = (req: Request, res: Response, next: NextFunction) => {
    // GitLab's HandleMalformedStrings: a parameter holding NUL or a lone surrogate is refused whole
    if (hasMalformedString(req.body)) return void res.status(400).setHeader('Content-Type', 'text/plain').end('Bad Request');
    done(req, next);
  };
  return [
    (req, res, next) => {
      if (!hasBody(req) || streamBody(req)) return done(req, next);
      json(req, res, (err?: unknown) => (err ? next(err) : form(req, res, (err2?: unknown) => (err2 ? next(err2) : parsed(req, res, next)))));
    },
  ];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when a string anywhere in a parsed body holds a NUL character (Postgres refuses it in text and
 * jsonb) or a lone surrogate (which has no UTF-8). Walked with a stack of its own: nesting is the
 * client's to choose.
 */
export function hasMalformedString(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\0') || LONE_SURROGATE.test(value)) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) pending.push(k, v);
    }
  }
  return false;
}

/**
 * Builds a service's express app: security headers, request id, health/readiness/liveness/metrics,
 * context verification on /api/v4, lenient body parsing, GitLab's 404 for unknown routes, and one
 * error middleware rendering HttpErrors (and logging only 5xx). No I/O happens here.
 */
export function createServiceApp(opts: ServiceAppOptions): express.Express {
  const app = express();
  const log = opts.logger ?? createLogger(opts.name);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', (s: string) => qs.parse(s, { depth: 5, arrayLimit: 1000, parameterLimit: 2000 }));

  const registry = new Registry();
  registry.setDefaultLabels({ service: opts.name });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames: ['method', 'status'], registers: [registry] });
  const duration = new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP request duration', labelNames: ['method'], registers: [registry], buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5] });

  // On this app's response prototype, not on each response: no property added per request.
  app.response.json = exactJson;
  requestLoggers(app, log);

  app.use((req, res, next) => {
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const rid = req.get('x-request-id');
    if (rid) res.setHeader('X-Request-Id', rid);
    const end = duration.startTimer({ method: req.method });
    res.on('finish', () => {
      end();
      requests.inc({ method: req.method, status: String(res.statusCode) });
    });
    next();
  });

  app.get('/-/health', (_req, res) => {
    res.type('text/plain').send('GitLab OK');
  });
  app.get('/-/liveness', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/-/readiness', async (_req, res) => {
    const ok = opts.readiness ? await opts.readiness().catch(() => false) : true;
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'failed', service: opts.name });
  });
  const registries = [registry, ...(opts.metrics ?? [])];
  app.get('/metrics', async (_req, res) => {
    const texts = await Promise.all(registries.map((r) => r.metrics()));
    res.type(registry.contentType).send(texts.join(''));
  });

  if (opts.internal) {
    const internal = Router();
    internal.use((req, _res, next) => {
      const given = req.get(INTERNAL_TOKEN_HEADER) ?? '';
      const allowed = opts.internalAuth ? opts.internalAuth(given, req) : !!opts.internalToken && constantTimeEqual(given, opts.internalToken);
      if (!allowed) return next(new UnauthorizedError());
      next();
    });
    internal.use(...bodyParsers());
    opts.internal(internal);
    app.use('/internal', internal);
  }

  const api = Router();
  api.use((req, _res, next) => {
    try {
      req.anvil = opts.verifier.verify(req.get(CONTEXT_HEADER), req.method, req.originalUrl);
      next();
    } catch (e) {
      // genuine but stale: the request waited here longer than a context lives (overload), so the
      // client is told to retry, not that its credentials are wrong
      if (e instanceof ContextExpiredError) return next(new ServiceUnavailableError(1));
      if (e instanceof ContextError) return next(new UnauthorizedError('request did not come through the gateway'));
      next(e);
    }
  });
  api.use(...bodyParsers(opts.streamBody));
  opts.api?.(api);
  app.use('/api/v4', api);

  app.use((_req, _res, next) => next(new HttpError(404, { error: '404 Not Found' })));
  app.use(errorHandler(log, opts.errorTranslators ?? []));
  return app;
}

const REQUEST_LOG = Symbol('log');

/**
 * Gives each request of `app` a `req.log`: a child of `log` with the request id (`X-Request-Id`, which
 * the gateway sets, else the signed context's `rid`), made on first use, so a request that logs
 * nothing costs nothing.
 */
function requestLoggers(app: express.Express, log: Logger): void {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [REQUEST_LOG]?: Logger }): Logger {
      const rid = this.get('x-request-id') ?? this.anvil?.rid;
      return (this[REQUEST_LOG] ??= rid ? log.child({ rid }) : log);
    },
  });
}

/**
 * `res.json` that answers `Content-Type: application/json` exactly, as GitLab does: python-gitlab
 * compares the header to that string, and express would append `; charset=utf-8`.
 */
function exactJson(this: Response, body: unknown): Response {
  if (!this.get('Content-Type')) this.setHeader('Content-Type', 'application/json');
  return this.send(Buffer.from(JSON.stringify(body) ?? 'null', 'utf8'));
}

/** Renders HttpErrors as GitLab bodies; translates known errors; anything else is a logged 500. */
export function errorHandler(log: Logger, translators: ErrorTranslator[]) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let e: HttpError | undefined = err instanceof HttpError ? err : undefined;
    if (!e) for (const t of translators) if ((e = t(err))) break;
    if (!e) e = bodyParserError(err);
    if (!e) {
      (req.log ?? log).error('unhandled error', { method: req.method, path: req.originalUrl, err: err instanceof Error ? err.stack : String(err) });
      e = new HttpError(500, { message: '500 Internal Server Error' });
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
    if (e.status === 304 || e.status === 204) {
      res.status(e.status).end();
      return;
    }
    res.status(e.status).json(e.body);
  };
}

function bodyParserError(err: unknown): HttpError | undefined {
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') return new HttpError(400, { error: 'The provided content-type is not supported or the body is not valid JSON' });
  if (e?.type === 'entity.too.large') return new HttpError(413, { message: '413 Request Entity Too Large' });
  if (e?.status && e.status >= 400 && e.status < 500) return new HttpError(e.status, { message: `${e.status} Bad request` });
  return undefined;
}
