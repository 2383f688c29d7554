import type { IncomingMessage, ServerResponse } from 'node:http';

/** An answer the gateway gives itself (GitLab's bodies and headers), instead of forwarding. */
export interface Refusal {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Plain-text body (e.g. Rack::Attack's `Retry later`) instead of JSON. */
  text?: boolean;
}

const bearer = (description: string): Refusal => ({
  status: 401,
  body: { error: 'invalid_token', error_description: description },
  headers: { 'WWW-Authenticate': `Bearer realm="", error="invalid_token", error_description="${description}"` },
});

/** GitLab's refusals, by name. */
export const refusals = {
  notFound: (): Refusal => ({ status: 404, body: { error: '404 Not Found' } }),
  resourceNotFound: (what: string): Refusal => ({ status: 404, body: { message: `404 ${what} Not Found` } }),
  /** `not_found!` without a resource name. */
  messageNotFound: (): Refusal => ({ status: 404, body: { message: '404 Not Found' } }),
  apiV3: (): Refusal => ({ status: 410, body: { error: 'API V3 is no longer supported. Use API V4 instead.' } }),
  badToken: () => bearer('Bad Access Token.'),
  expiredToken: () => bearer('Token is expired. You can either do re-authorization or token refresh.'),
  revokedToken: () => bearer('Token was revoked. You have to re-authorize from the user.'),
  blocked: (): Refusal => ({ status: 403, body: { message: '403 Forbidden - Your account has been blocked.' } }),
  insufficientScope: (scopes: string): Refusal => ({
    status: 403,
    body: {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: scopes,
    },
  }),
  unauthorized: (): Refusal => ({ status: 401, body: { message: '401 Unauthorized' } }),
  forbidden: (reason: string): Refusal => ({ status: 403, body: { message: `403 Forbidden - ${reason}` } }),
  badGateway: (): Refusal => ({ status: 502, body: { message: '502 Bad Gateway' } }),
  /** An accelerated upload over the service's limit (GitLab's `file_too_large!`); the rest is not read. */
  fileTooLarge: (): Refusal => ({ status: 400, body: { message: '400 Bad request - File is too large' }, headers: { Connection: 'close' } }),
  /** An accelerated download whose stored object is gone (the answer services give for a missing file). */
  fileNotFound: (): Refusal => ({ status: 404, body: { message: '404 Not found' } }),
  gatewayTimeout: (): Refusal => ({ status: 504, body: { message: '504 Gateway Timeout' } }),
  /** A malformed string in the path, the query or the credentials (`malformed.ts`). */
  malformed: (): Refusal => ({ status: 400, body: 'Bad Request', text: true }),
  /** A JSON or form body over MAX_REQUEST_BODY_BYTES; it is not read. */
  entityTooLarge: (): Refusal => ({ status: 413, body: { message: '413 Request Entity Too Large' }, headers: { Connection: 'close' } }),
  /** A request body that stalled (`CLIENT_BODY_TIMEOUT_MS`); the rest is not read. */
  requestTimeout: (): Refusal => ({ status: 408, body: { message: '408 Request Timeout' }, headers: { Connection: 'close' } }),
};

/** Thrown inside the request pipeline to stop it with a refusal. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(`refused ${refusal.status}`);
  }
}

/** Stops the pipeline with `r`. */
export function refuse(r: Refusal): never {
  throw new RefusalError(r);
}

/** A declared body larger than this that the gateway does not read closes its connection after the answer. */
const BIG_BODY = 64 * 1024;
/** Security headers GitLab sets on every API response. */
const SECURITY_HEADERS = { 'X-Frame-Options': 'SAMEORIGIN', 'X-Content-Type-Options': 'nosniff' };

/**
 * Answers the client with the gateway's own `status` and `body` (security headers, request id, no body
 * for HEAD). An answer already under way is cut instead; a request whose body stays unread (chunked, or
 * over 64 KB) has its connection closed after the answer rather than drained.
 */
export function replyDirectly(req: IncomingMessage, res: ServerResponse, rid: string, status: number, type: string, body: string, extra?: Record<string, string>): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const len = Number(req.headers['content-length'] ?? 0);
  if (req.headers['transfer-encoding'] || len > BIG_BODY) res.shouldKeepAlive = false;
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...SECURITY_HEADERS,
    'X-Request-Id': rid,
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
