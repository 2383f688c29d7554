import http, { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import { INTERNAL_HEADER_PREFIX } from '@anvil/auth';

/** One upstream service: where it listens and the keep-alive agent its requests share. */
export interface Upstream {
  name: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** `host:port` for the Host header. */
  host: string;
  agent: http.Agent;
}

/** An upstream for `url`, with a keep-alive agent sized for a busy gateway. */
export function createUpstream(name: string, url: string): Upstream {
  const u = new URL(url);
  const secure = u.protocol === 'https:';
  const opts: http.AgentOptions = { keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 1024, maxFreeSockets: 256, scheduling: 'lifo' };
  return {
    name,
    protocol: secure ? 'https:' : 'http:',
    hostname: u.hostname,
    port: Number(u.port || (secure ? 443 : 80)),
    host: u.host,
    agent: secure ? new https.Agent(opts) : new http.Agent(opts),
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
  /** Idle time (ms) after which the upstream exchange is cut. */
  timeoutMs: number;
  /** Called with the upstream's status once its response starts. */
  onResponse?: (status: number) => void;
}

/** The incoming request's headers for the upstream: filtered, plus forwarding and context headers. */
function requestHeaders(req: IncomingMessage, spec: ForwardSpec): string[] {
  const raw = req.rawHeaders;
  const out: string[] = [];
  const connection = req.headers.connection;
  const listed = connection && connection !== 'keep-alive' && connection !== 'close' ? connection.toLowerCase().split(/\s*,\s*/) : null;
  let xff = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === 'x-forwarded-for') xff = xff ? `${xff}, ${raw[i + 1]}` : raw[i + 1];
    if (DROP_REQUEST.has(name) || name.startsWith(INTERNAL_HEADER_PREFIX)) continue;
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

/** The upstream's response headers for the client: hop-by-hop dropped, security headers set. */
function responseHeaders(up: IncomingMessage, requestId: string): string[] {
  const raw = up.rawHeaders;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!DROP_RESPONSE.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  }
  out.push('X-Frame-Options', 'SAMEORIGIN', 'X-Content-Type-Options', 'nosniff', 'X-Request-Id', requestId);
  return out;
}

/**
 * Streams `req` to the upstream and its response back, with backpressure both ways (pipe).
 * `onError` answers when the upstream cannot be reached (or stays idle past the timeout) before a
 * response started; after that an upstream failure cuts the client's connection. A client that goes
 * away aborts the upstream request.
 */
export function forward(req: IncomingMessage, res: ServerResponse, spec: ForwardSpec, onError: (timedOut: boolean) => void): void {
  const { upstream } = spec;
  const mod = upstream.protocol === 'https:' ? https : http;
  const upReq = mod.request({
    protocol: upstream.protocol,
    hostname: upstream.hostname,
    port: upstream.port,
    agent: upstream.agent,
    method: req.method,
    path: spec.path,
    headers: requestHeaders(req, spec) as unknown as http.OutgoingHttpHeaders,
    setHost: false,
  });
  let responded = false;
  let timedOut = false;
  upReq.setTimeout(spec.timeoutMs, () => {
    timedOut = true;
    upReq.destroy(new Error('upstream timeout'));
  });
  upReq.on('response', (upRes) => {
    responded = true;
    spec.onResponse?.(upRes.statusCode ?? 502);
    res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, responseHeaders(upRes, spec.requestId));
    upRes.pipe(res);
    upRes.on('error', () => res.destroy());
    upRes.on('aborted', () => res.destroy());
  });
  upReq.on('error', () => {
    req.unpipe(upReq);
    if (!responded && !res.headersSent) onError(timedOut);
    else res.destroy();
  });
  req.on('error', () => upReq.destroy());
  res.on('close', () => {
    if (!res.writableFinished) upReq.destroy();
  });
  if (hasBody(req)) req.pipe(upReq);
  else upReq.end();
}

/** Whether the request carries a body (a length or chunked); bodiless requests skip the pipe. */
function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}
