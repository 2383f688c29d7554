import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { INTERNAL_HEADER_PREFIX, REUSABLE_ANSWER_HEADER, SEND_FILE_HEADER, SHARED_ANSWER_HEADER, sharedAnswerMaxAge } from '@anvil/auth';
import { cutWhenStalled } from './client-timeouts';
import { SHARED_ANSWER_MAX_BYTES } from './shared-answers';

/** One upstream service: where it listens and the keep-alive connection pool its requests share. */
export interface Upstream {
  name: string;
  /** `host:port` for the Host header. */
  host: string;
  pool: Pool;
}

/**
 * An upstream for `url`: undici's pool (keep-alive, no pipelining, generous connection count).
 * undici's dispatcher costs about a third less CPU per request than `http.request`.
 */
export function createUpstream(name: string, url: string): Upstream {
  const u = new URL(url);
  return {
    name,
    host: u.host,
    pool: new Pool(u.origin, { connections: 1024, pipelining: 1, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 }),
  };
}

/** Request headers never forwarded (hop-by-hop, and what the gateway sets itself). */
const DROP_REQUEST = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade',
  'host', 'expect', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-request-id',
]);
/** Credentials the gateway consumed; only registry and alert routes pass `Authorization` on. */
const CREDENTIALS = new Set(['private-token', 'authorization']);
/** Response headers never passed back (hop-by-hop, and what the gateway sets itself). */
const DROP_RESPONSE = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'trailer', 'upgrade',
  'x-frame-options', 'x-content-type-options', 'x-request-id',
]);

/** What to forward: the rewritten path and the headers the gateway adds. */
export interface ForwardSpec {
  upstream: Upstream;
  /** Path and query as the upstream sees them (the signed context is bound to it). */
  path: string;
  requestId: string;
  context: string;
  contextHeader: string;
  /** Pass `Authorization` through (registry and alert integration routes). */
  keepAuthorization: boolean;
  /** Idle time (ms) waiting for the upstream's headers, or between its body chunks. */
  timeoutMs: number;
  /** A client that takes nothing of the answer for this long (ms) is cut, the upstream request with it; 0 or absent, never. */
  sendTimeoutMs?: number;
  /** Called with the upstream's status once its response starts. */
  onResponse?: (status: number) => void;
  /** Forward without the request body (the gateway consumed it: an accelerated upload). */
  bodyless?: boolean;
  /**
   * Serves an `x-anvil-send-file` answer (accelerated download): called instead of relaying the
   * upstream's (empty) body, with the status, the client headers without the per-request ones (and
   * no length), and the seconds the service allows the answer to be reused by the same caller
   * (`x-anvil-reusable-answer`, null when not); absent, such an answer is a 502.
   */
  sendFile?: (key: string, status: number, headers: string[], reuseMaxAge: number | null) => void;
  /**
   * Called with a `200` answer the service marked `x-anvil-shared-answer: max-age=<n>` once it has
   * been relayed: the client headers without the per-request ones, the body and the seconds.
   */
  onSharedAnswer?: (status: number, headers: string[], body: Buffer, maxAgeSeconds: number) => void;
  /** The same for a `200` answer marked `x-anvil-reusable-answer` (the same again for the same caller). */
  onReusableAnswer?: (status: number, headers: string[], body: Buffer, maxAgeSeconds: number) => void;
}

/** Whether a `200` answer to a GET is kept: for any caller (shared) or for the same caller (reusable), and for how long. */
function keptFor(spec: ForwardSpec, method: string | undefined, status: number, headers: IncomingHttpHeaders): { kind: 'shared' | 'reusable'; maxAge: number } | null {
  if (status !== 200 || method !== 'GET') return null;
  const shared = spec.onSharedAnswer ? sharedAnswerMaxAge(headers[SHARED_ANSWER_HEADER]) : null;
  if (shared !== null) return { kind: 'shared', maxAge: shared };
  const reusable = spec.onReusableAnswer ? sharedAnswerMaxAge(headers[REUSABLE_ANSWER_HEADER]) : null;
  return reusable !== null ? { kind: 'reusable', maxAge: reusable } : null;
}

/**
 * The incoming request's headers for the upstream: filtered, plus forwarding and context headers.
 * `bodyless`: the body is not forwarded, so neither is its length.
 */
export function requestHeaders(req: IncomingMessage, spec: Pick<ForwardSpec, 'upstream' | 'requestId' | 'contextHeader' | 'context' | 'keepAuthorization' | 'bodyless'>): string[] {
  const raw = req.rawHeaders;
  const out: string[] = [];
  const connection = req.headers.connection;
  const listed = connection && connection !== 'keep-alive' && connection !== 'close' ? connection.toLowerCase().split(/\s*,\s*/) : null;
  let xff = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === 'x-forwarded-for') xff = xff ? `${xff}, ${raw[i + 1]}` : raw[i + 1];
    if (DROP_REQUEST.has(name) || name.startsWith(INTERNAL_HEADER_PREFIX)) continue;
    if (spec.bodyless && name === 'content-length') continue;
    if (CREDENTIALS.has(name) && !(spec.keepAuthorization && name === 'authorization')) continue;
    if (listed && listed.includes(name)) continue;
    out.push(raw[i], raw[i + 1]);
  }
  const remote = req.socket.remoteAddress ?? '';
  out.push(
    'host', spec.upstream.host,
    'x-forwarded-for', xff ? `${xff}, ${remote}` : remote,
    'x-forwarded-proto', (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
    'x-forwarded-host', req.headers.host ?? '',
    'x-request-id', spec.requestId,
    spec.contextHeader, spec.context,
  );
  return out;
}

/**
 * The upstream's response headers for the client: hop-by-hop and internal ones dropped (and the
 * length, for a file the gateway sends itself), without the per-request ones.
 */
export function clientHeaders(headers: IncomingHttpHeaders, dropLength = false): string[] {
  const out: string[] = [];
  for (const name in headers) {
    const v = headers[name];
    if (v === undefined || DROP_RESPONSE.has(name) || name.startsWith(INTERNAL_HEADER_PREFIX)) continue;
    if (dropLength && name === 'content-length') continue;
    if (Array.isArray(v)) for (const one of v) out.push(name, one);
    else out.push(name, v);
  }
  return out;
}

/** clientHeaders with the security headers and the request id set. */
export function responseHeaders(headers: IncomingHttpHeaders, requestId: string): string[] {
  return [...clientHeaders(headers), ...perRequestHeaders(requestId)];
}

/** The headers the gateway adds to every answer (the security headers and the request id). */
export function perRequestHeaders(requestId: string): string[] {
  return ['X-Frame-Options', 'SAMEORIGIN', 'X-Content-Type-Options', 'nosniff', 'X-Request-Id', requestId];
}

/** Whether the request carries a body (a length or chunked); bodiless requests send none upstream. */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Whether an undici failure was the upstream staying silent past the timeout. */
export function isUpstreamTimeout(e: unknown): boolean {
  return TIMEOUTS.has((e as { code?: string })?.code ?? '');
}

/**
 * Streams `req` to the upstream and its response back, with backpressure both ways (undici reads
 * the request stream as the socket drains; the response pauses while the client is slow).
 * `onError` answers when the upstream fails (or stays idle past the timeout) before a response
 * started; after that an upstream failure cuts the client's connection. A client that goes away
 * aborts the upstream request.
 */
export function forward(req: IncomingMessage, res: ServerResponse, spec: ForwardSpec, onError: (timedOut: boolean) => void): void {
  let controller: Dispatcher.DispatchController | null = null;
  let settled = false;
  let clientGone = false;
  /** The gateway sends a stored file instead of the upstream's body. */
  let sending = false;
  /** A shared answer being kept: its status, headers, seconds and the body so far. */
  let keeping: { kind: 'shared' | 'reusable'; status: number; headers: string[]; maxAge: number; parts: Buffer[]; bytes: number } | null = null;
  /** Whether `cutWhenStalled` watches the answer (since its first write the client held up). */
  let stallWatched = false;
  // the client went away, or the gateway answered it itself (a stalled body's 408): the upstream's
  // answer has nowhere to go
  res.on('close', () => {
    if (settled) return;
    clientGone = true;
    controller?.abort(new Error('client closed the connection'));
  });
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(c) {
      controller = c;
      if (clientGone) c.abort(new Error('client closed the connection'));
    },
    onResponseStart(c, status, headers, statusMessage) {
      spec.onResponse?.(status);
      const sendKey = headers[SEND_FILE_HEADER];
      if (sendKey !== undefined) {
        sending = true;
        settled = true;
        if (typeof sendKey === 'string' && spec.sendFile) spec.sendFile(sendKey, status, clientHeaders(headers, true), sharedAnswerMaxAge(headers[REUSABLE_ANSWER_HEADER]));
        else onError(false);
        return;
      }
      const kept = keptFor(spec, req.method, status, headers);
      if (kept) keeping = { ...kept, status, headers: clientHeaders(headers), parts: [], bytes: 0 };
      try {
        res.writeHead(status, statusMessage || undefined, responseHeaders(headers, spec.requestId));
      } catch (e) {
        // a header node refuses to write (invalid characters): nothing sensible can reach the client
        c.abort(e as Error);
      }
    },
    onResponseData(c, chunk) {
      if (sending) return;
      if (keeping) {
        keeping.bytes += chunk.length;
        if (keeping.bytes > SHARED_ANSWER_MAX_BYTES) keeping = null;
        else keeping.parts.push(Buffer.from(chunk));
      }
      if (!res.write(chunk)) {
        // bytes now wait for the client: from here on, one that takes nothing is cut (armed once,
        // and only for answers that meet a slow client, not for every small one)
        if (!stallWatched) {
          stallWatched = true;
          cutWhenStalled(res, spec.sendTimeoutMs ?? 0);
        }
        c.pause();
        res.once('drain', () => c.resume());
      }
    },
    onResponseEnd() {
      settled = true;
      if (sending) return;
      res.end();
      if (keeping) (keeping.kind === 'shared' ? spec.onSharedAnswer! : spec.onReusableAnswer!)(keeping.status, keeping.headers, Buffer.concat(keeping.parts), keeping.maxAge);
    },
    onResponseError(_c, err) {
      settled = true;
      if (sending) return;
      if (clientGone) return;
      if (!res.headersSent) onError(isUpstreamTimeout(err));
      else res.destroy();
    },
  };
  spec.upstream.pool.dispatch(
    {
      path: spec.path,
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: requestHeaders(req, spec),
      body: !spec.bodyless && hasBody(req) ? req : null,
      headersTimeout: spec.timeoutMs,
      bodyTimeout: spec.timeoutMs,
    },
    handler,
  );
}
