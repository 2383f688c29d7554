import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { INTERNAL_HEADER_PREFIX, REUSABLE_ANSWER_HEADER, SEND_FILE_HEADER, SHARED_ANSWER_HEADER, sharedAnswerMaxAge } from '@anvil/auth';
import { cutWhenStalled } from './client-timeouts';
import { KEPT_BODY_MAX_BYTES } from './answers';

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
/** Credentials the gateway consumed; only routes whose entry says so pass `Authorization` on. */
const CREDENTIALS = new Set(['private-token', 'authorization']);
/** Response headers never passed back (hop-by-hop, and what the gateway sets itself). */
const DROP_RESPONSE = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'trailer', 'upgrade',
  'x-frame-options', 'x-content-type-options', 'x-request-id',
]);

/** Which answers a request may keep: for any caller (shared) or for the same caller (reused). */
export type AnswerKind = 'shared' | 'reused';

/** What to forward: the rewritten path and the headers the gateway adds. */
export interface ForwardSpec {
  upstream: Upstream;
  /** Path and query as the upstream sees them (the signed context is bound to it). */
  path: string;
  requestId: string;
  context: string;
  contextHeader: string;
  /** Pass `Authorization` through (routes whose entry says so). */
  keepAuthorization: boolean;
  /** The peer is a trusted proxy (`TRUSTED_PROXIES`): its `X-Forwarded-*` headers are kept and extended. */
  fromProxy?: boolean;
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
  /** The marks this request's answer may be kept by (`x-anvil-shared-answer`, `x-anvil-reusable-answer`). */
  keeps?: readonly AnswerKind[];
  /**
   * Called with a `200` answer to a GET marked by one of `keeps` (shared first), once it has been
   * relayed: the client headers without the per-request ones, the body and the seconds.
   */
  onKeptAnswer?: (kind: AnswerKind, status: number, headers: string[], body: Buffer, maxAgeSeconds: number) => void;
  /**
   * The most bytes the body may have, counted as it streams (a chunked body declares none): past it
   * the upstream request is aborted and `onBodyTooLarge` answers (or closes an answer already started).
   */
  maxBodyBytes?: number;
  onBodyTooLarge?: () => void;
}

const MARKS: Record<AnswerKind, string> = { shared: SHARED_ANSWER_HEADER, reused: REUSABLE_ANSWER_HEADER };

/** Whether a `200` answer to a GET is kept, by which of the request's marks, and for how long. */
function keptFor(spec: ForwardSpec, method: string | undefined, status: number, headers: IncomingHttpHeaders): { kind: AnswerKind; maxAge: number } | null {
  if (status !== 200 || method !== 'GET' || !spec.onKeptAnswer) return null;
  for (const kind of spec.keeps ?? []) {
    const maxAge = sharedAnswerMaxAge(headers[MARKS[kind]]);
    if (maxAge !== null) return { kind, maxAge };
  }
  return null;
}

/**
 * The incoming request's headers for the upstream: filtered, plus forwarding and context headers.
 * `bodyless`: the body is not forwarded, so neither is its length.
 */
export function requestHeaders(req: IncomingMessage, spec: Pick<ForwardSpec, 'upstream' | 'requestId' | 'contextHeader' | 'context' | 'keepAuthorization' | 'bodyless' | 'fromProxy'>): string[] {
  const raw = req.rawHeaders;
  const out: string[] = [];
  const connection = req.headers.connection;
  const listed = connection && connection !== 'keep-alive' && connection !== 'close' ? connection.toLowerCase().split(/\s*,\s*/) : null;
  // what a trusted proxy says it forwarded; from anyone else, nothing
  let xff = '';
  let proto = '';
  let host = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (spec.fromProxy && name.startsWith('x-forwarded-')) {
      if (name === 'x-forwarded-for') xff = xff ? `${xff}, ${raw[i + 1]}` : raw[i + 1];
      else if (name === 'x-forwarded-proto' && !proto) proto = raw[i + 1].split(',')[0].trim();
      else if (name === 'x-forwarded-host' && !host) host = raw[i + 1].split(',')[0].trim();
    }
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
    'x-forwarded-proto', proto || ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'),
    'x-forwarded-host', host || (req.headers.host ?? ''),
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
  const relay = new Relay(req, res, spec, onError);
  const withBody = !spec.bodyless && hasBody(req);
  spec.upstream.pool.dispatch(
    {
      path: spec.path,
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: requestHeaders(req, spec),
      body: withBody ? (spec.maxBodyBytes === undefined ? req : capped(req, spec.maxBodyBytes, () => relay.bodyTooLarge())) : null,
      headersTimeout: spec.timeoutMs,
      bodyTimeout: spec.timeoutMs,
    },
    relay,
  );
}

/** `req`'s body as it streams, counted: once past `max` bytes, `over` is called and the stream fails. */
function capped(req: IncomingMessage, max: number, over: () => void): Transform {
  let bytes = 0;
  const body = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes <= max) return done(null, chunk);
      // what is left is read and dropped until the connection closes
      req.unpipe(body);
      req.resume();
      over();
      done(new Error('request body too large'));
    },
  });
  req.on('error', (e) => body.destroy(e));
  return req.pipe(body);
}

/** An answer being kept: its kind, status, headers, seconds and the body so far. */
interface Keeping {
  kind: AnswerKind;
  status: number;
  headers: string[];
  maxAge: number;
  parts: Buffer[];
  bytes: number;
}

/** One upstream answer on its way to the client: relayed, handed over as a stored file, and maybe kept. */
class Relay implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private clientGone = false;
  /** The gateway sends a stored file instead of the upstream's body. */
  private sending = false;
  private keeping: Keeping | null = null;
  /** Whether `cutWhenStalled` watches the answer (since its first write the client held up). */
  private stallWatched = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly spec: ForwardSpec,
    private readonly failed: (timedOut: boolean) => void,
  ) {
    // the client went away, or the gateway answered it itself (a stalled body's 408): the upstream's
    // answer has nowhere to go
    res.on('close', () => {
      if (this.settled) return;
      this.clientGone = true;
      this.controller?.abort(new Error('client closed the connection'));
    });
  }

  /** The body went past `maxBodyBytes`: the upstream request is aborted, and the client answered or cut. */
  bodyTooLarge(): void {
    if (this.settled) return;
    this.settled = true;
    this.clientGone = true;
    this.controller?.abort(new Error('request body too large'));
    this.spec.onBodyTooLarge?.();
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    if (this.clientGone) c.abort(new Error('client closed the connection'));
  }

  onResponseStart(c: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (this.clientGone) return void c.abort(new Error('client closed the connection'));
    this.spec.onResponse?.(status);
    if (headers[SEND_FILE_HEADER] !== undefined) return this.handOver(status, headers);
    const kept = keptFor(this.spec, this.req.method, status, headers);
    if (kept) this.keeping = { ...kept, status, headers: clientHeaders(headers), parts: [], bytes: 0 };
    try {
      this.res.writeHead(status, statusMessage || undefined, responseHeaders(headers, this.spec.requestId));
    } catch (e) {
      // a header node refuses to write (invalid characters): nothing sensible can reach the client
      c.abort(e as Error);
    }
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.sending || this.clientGone) return;
    this.keep(chunk);
    if (this.res.write(chunk)) return;
    // bytes now wait for the client: from here on, one that takes nothing is cut (armed once, and
    // only for answers that meet a slow client, not for every small one)
    if (!this.stallWatched) {
      this.stallWatched = true;
      cutWhenStalled(this.res, this.spec.sendTimeoutMs ?? 0);
    }
    c.pause();
    this.res.once('drain', () => c.resume());
  }

  onResponseEnd(): void {
    this.settled = true;
    if (this.sending || this.clientGone) return;
    this.res.end();
    const k = this.keeping;
    if (k) this.spec.onKeptAnswer!(k.kind, k.status, k.headers, Buffer.concat(k.parts), k.maxAge);
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.settled = true;
    if (this.sending || this.clientGone) return;
    if (!this.res.headersSent) this.failed(isUpstreamTimeout(err));
    else this.res.destroy();
  }

  /** An `x-anvil-send-file` answer: the gateway sends the named object (a 502 where it cannot). */
  private handOver(status: number, headers: IncomingHttpHeaders): void {
    this.sending = true;
    this.settled = true;
    const key = headers[SEND_FILE_HEADER];
    if (typeof key === 'string' && this.spec.sendFile) this.spec.sendFile(key, status, clientHeaders(headers, true), sharedAnswerMaxAge(headers[REUSABLE_ANSWER_HEADER]));
    else this.failed(false);
  }

  /** Collects the body of an answer being kept, until it is over the bound. */
  private keep(chunk: Buffer): void {
    if (!this.keeping) return;
    this.keeping.bytes += chunk.length;
    if (this.keeping.bytes > KEPT_BODY_MAX_BYTES) this.keeping = null;
    else this.keeping.parts.push(Buffer.from(chunk));
  }
}
