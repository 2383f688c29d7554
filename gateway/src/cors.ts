import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS on `/api/*` as GitLab answers it (Rack::Cors in `config/application.rb`): any origin, no
 * credentials, any method and header, these response headers readable by scripts. Only requests that
 * carry `Origin` get CORS headers.
 */
export const EXPOSED_HEADERS = [
  'Link', 'X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Gitlab-Blob-Id', 'X-Gitlab-Commit-Id',
  'X-Gitlab-Content-Sha256', 'X-Gitlab-Encoding', 'X-Gitlab-File-Name', 'X-Gitlab-File-Path', 'X-Gitlab-Last-Commit-Id', 'X-Gitlab-Ref',
  'X-Gitlab-Size', 'X-Request-Id', 'ETag',
].join(', ');
/** Rack::Cors' `methods: :any`. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** Rack::Cors' default `max_age` (seconds). */
export const MAX_AGE = '7200';

/** A CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** Answers a preflight itself: nothing is authenticated or forwarded. */
export function preflight(req: IncomingMessage, res: ServerResponse, rid: string): void {
  const asked = req.headers['access-control-request-headers'];
  res.writeHead(200, {
    'Content-Type': 'text/plain',
    'Content-Length': '0',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    ...(asked ? { 'Access-Control-Allow-Headers': asked } : {}),
    'Access-Control-Max-Age': MAX_AGE,
    'X-Request-Id': rid,
  });
  res.end();
}

/** The CORS headers of an actual request's answer, whoever gives it. */
export function applyCors(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}
