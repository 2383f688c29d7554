import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTEXT_HEADER, IdentityClient } from '@anvil/auth';
import type { Logger } from '@anvil/http';
import { AccessLog } from './access-log';
import { acceleratedUpload } from './accelerated-upload';
import { type KeptAnswer, KeptAnswers, REUSED_ANSWERS_MAX, SHARED_ANSWERS_MAX } from './answers';
import { watchBody } from './client-timeouts';
import { Authenticator, type AuthRequest, Principal } from './auth';
import type { GatewayConfig } from './config';
import { CredentialReader, QueryParams } from './credentials';
import { RouteMatcher } from './matcher';
import { GatewayMetrics, UNMATCHED_ROUTE } from './metrics';
import { type AnswerKind, forward, ForwardSpec, hasBody, perRequestHeaders, Upstream } from './proxy';
import { applyCors, isPreflight, preflight } from './cors';
import { TrustedProxies } from './forwarded';
import type { RequestLimits } from './limits';
import { refuse, Refusal, RefusalError, refusals, replyDirectly } from './refusals';
import { ScopeResolver } from './resolver';
import { RouteDef, ROUTES, ServiceName } from './routes';
import type { GatewaySigner } from './signer';
import { outgoing, type Outgoing, type OutgoingContext, type OutgoingOptions, type Prepared, storesBody } from './outgoing';
import { type Forwardable, parseTarget, Target } from './target';
import type { Transfers } from './transfers';

/** What the gateway needs, already built. */
export interface GatewayDeps {
  config: GatewayConfig;
  signer: GatewaySigner;
  identity: IdentityClient;
  upstreams: Record<ServiceName, Upstream>;
  accessLog: AccessLog;
  logger: Logger;
  /** Accelerated transfers on routes whose entry asks for them (absent: every body is proxied). */
  transfers?: Transfers;
  /** The routing table (default ROUTES). */
  routes?: RouteDef[];
  /** GitLab's request limits, when any is on. */
  limits?: RequestLimits | null;
}

/** Per-request facts the access log reports. */
interface Trace {
  started: number;
  rid: string;
  user: number | null;
  service: ServiceName | null;
  /** The routing-table pattern (or local page, `alert`, `unmatched`): the latency histogram's label. */
  route: string;
}

const ANONYMOUS: Principal = Object.freeze({ user: null, scopes: [], auth: 'none' }) as Principal;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Whether a raw request URL is under /api/ (GitLab's CORS resource `/api/*`). */
const isApiPath = (url: string) => url.startsWith('/api/');
/** The answers a GET may keep, on routes without and with reused answers. */
const KEEPS_SHARED: readonly AnswerKind[] = ['shared'];
const KEEPS_BOTH: readonly AnswerKind[] = ['shared', 'reused'];

/**
 * The request pipeline: route → authenticate → rate limit → resolve `:id` → sign context → forward.
 * What happens at each step for a request is what its routing-table entry says. Every refusal is
 * GitLab's body; every request produces one access-log record.
 */
export class Gateway {
  readonly matcher: RouteMatcher;
  readonly auth: Authenticator;
  readonly resolver: ScopeResolver;
  private readonly limits: RequestLimits | null;
  readonly proxies: TrustedProxies;
  private readonly credentials: CredentialReader;
  /** Set once the gateway stops: readiness fails, and connections close after their answer. */
  draining = false;
  /** Responses by status and latency by route (`/metrics`). */
  readonly metrics: GatewayMetrics;
  /** Answers services marked as the same for every caller. */
  readonly sharedAnswers = new KeptAnswers(SHARED_ANSWERS_MAX);
  /** Answers services marked reusable by the same caller, on routes whose entry allows it. */
  readonly reusedAnswers = new KeptAnswers(REUSED_ANSWERS_MAX);
  /** Event type prefixes that announce a write to a project's reused answers (from the routing table). */
  private readonly writtenBy: string[];
  /** What every request's Outgoing is built with (the same for each). */
  private readonly outgoingOptions: OutgoingOptions;

  constructor(private readonly deps: GatewayDeps) {
    const routes = deps.routes ?? ROUTES;
    const ttl = deps.config.AUTH_CACHE_TTL_MS;
    this.matcher = new RouteMatcher(routes);
    this.credentials = new CredentialReader(deps.config);
    this.auth = new Authenticator(deps.identity, this.credentials, ttl);
    this.proxies = new TrustedProxies(deps.config.TRUSTED_PROXIES);
    this.limits = deps.limits ?? null;
    this.resolver = new ScopeResolver(deps.identity, ttl);
    this.writtenBy = [...new Set(routes.flatMap((r) => (r.reusedAnswers ? [r.reusedAnswers.writtenBy] : [])))];
    this.outgoingOptions = { base: deps.config.PUBLIC_URL as string, transfers: !!deps.transfers, generation: (p) => this.reusedAnswers.generation(p) };
    const transfers = deps.transfers;
    this.metrics = new GatewayMetrics(transfers ? () => transfers.receiving : undefined);
  }

  /** The event patterns besides identity's whose events `invalidate` must hear (`<prefix>#`). */
  get eventPatterns(): string[] {
    return this.writtenBy.map((prefix) => `${prefix}#`);
  }

  /**
   * The `http.Server` listener for `request` and `checkContinue`: a client that sent
   * `Expect: 100-continue` gets `100 Continue` only once the request is on its way upstream, so a
   * refused upload is refused before its body is sent.
   */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const incoming = req.headers['x-request-id'];
    const trace: Trace = {
      started: performance.now(),
      rid: typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID(),
      user: null,
      service: null,
      route: UNMATCHED_ROUTE,
    };
    res.once('close', () => this.record(req, res, trace));
    if (this.draining) res.shouldKeepAlive = false;
    const api = isApiPath(req.url ?? '/');
    if (api && req.headers.origin !== undefined) {
      if (isPreflight(req)) return preflight(req, res, trace.rid);
      applyCors(res);
    }
    if (api && hasBody(req) && this.bodyTooLarge(req)) return this.send(req, res, trace, refusals.entityTooLarge());
    if (hasBody(req)) watchBody(req, res, this.deps.config.CLIENT_BODY_TIMEOUT_MS, () => this.send(req, res, trace, refusals.requestTimeout()));
    this.serve(req, res, trace).catch((e: unknown) => this.fail(req, res, trace, e));
  };

  /**
   * Identity changed something: drop what may now be stale. An event a route's `reusedAnswers` names
   * (another replica wrote a project's data): that project's reused answers go.
   */
  invalidate(eventType?: string, data?: unknown): void {
    if (eventType && this.writtenBy.some((prefix) => eventType.startsWith(prefix))) {
      const project = (data as { project_id?: unknown } | undefined)?.project_id;
      this.reusedAnswers.written(typeof project === 'number' ? project : null);
      return;
    }
    if (!eventType || eventType.startsWith('identity.user.') || eventType.startsWith('identity.token.')) this.auth.clear();
    this.resolver.clear();
    this.reusedAnswers.clear();
  }

  stop(): void {
    this.deps.accessLog.flush();
  }

  private async serve(req: IncomingMessage, res: ServerResponse, trace: Trace): Promise<void> {
    const target = parseTarget(req.url ?? '/', this.matcher, req.headers.authorization);
    trace.route = target.kind === 'api' ? target.route.pattern : target.kind === 'alert' ? 'alert' : target.kind === 'local' ? `/${target.name}` : UNMATCHED_ROUTE;
    switch (target.kind) {
      case 'local':
        return this.local(req, res, trace, target.name);
      case 'refuse':
        return this.send(req, res, trace, target.refusal);
      case 'api':
      case 'alert':
        return this.proxy(req, res, trace, target);
    }
  }

  private async proxy(req: IncomingMessage, res: ServerResponse, trace: Trace, target: Forwardable): Promise<void> {
    trace.service = target.service;
    const prepared = target.kind === 'api' ? await this.prepareApi(req, trace, target) : await this.prepareAlert(target);
    const out = outgoing(req, trace.rid, target, prepared, this.outgoingOptions);
    this.dispatch(req, res, trace, out);
  }

  /** API routes: authenticate (scopes, sudo), rate limit, resolve `:id`, each as the route says. Refusals are thrown. */
  private async prepareApi(req: IncomingMessage, trace: Trace, target: Extract<Target, { kind: 'api' }>): Promise<Prepared> {
    const { route } = target;
    // before any credential is looked at
    if (route.notFoundInFips && this.deps.config.FIPS_MODE) refuse(refusals.messageNotFound());
    const method = req.method ?? 'GET';
    const query = new QueryParams(target.query);
    const request = { method, headers: req.headers, query, credentials: route.credentials, area: target.segs[0], readScopes: route.readScopes };
    const principal = this.limits ? await this.limitedAuthentication(req, request) : await this.auth.authenticate(request);
    trace.user = principal.user?.id ?? null;
    // before the project is looked up
    const signInFirst = route.authenticated || (route.authenticatedWrites && method !== 'GET' && method !== 'HEAD');
    if (signInFirst && !principal.user) refuse(refusals.unauthorized());
    return { principal, scope: await this.resolver.resolve(route, target.segs, principal.user) };
  }

  /**
   * Authentication within GitLab's limits: a banned address, or one without credentials over its
   * throttle, is refused before anything is looked up; failed credentials count against the address;
   * a user's requests against the user.
   */
  private async limitedAuthentication(req: IncomingMessage, request: AuthRequest): Promise<Principal> {
    const limits = this.limits!;
    const ip = this.proxies.clientIp(req);
    const presented = this.credentials.read(request.credentials, request.headers, request.query).kind !== 'none';
    const before = await limits.beforeAuthentication(ip, presented);
    if (before) refuse(before);
    let principal: Principal;
    try {
      principal = await this.auth.authenticate(request);
    } catch (e) {
      if (e instanceof RefusalError && e.refusal.status === 401) {
        const over = await limits.credentialsFailed(ip);
        if (over) refuse(over);
      }
      throw e;
    }
    const over = principal.user ? await limits.authenticatedRequest(principal.user.id) : presented ? await limits.credentialsFailed(ip) : null;
    if (over) refuse(over);
    return principal;
  }

  /** A JSON or form body declared larger than MAX_REQUEST_BODY_BYTES (uploads have their own limits). */
  private bodyTooLarge(req: IncomingMessage): boolean {
    return limitedBody(req) && Number(req.headers['content-length'] ?? 0) > this.deps.config.MAX_REQUEST_BODY_BYTES;
  }

  /**
   * Alert endpoints: the integration key is the service's to check. A missing project is forwarded
   * without one, so that it gets the service's answer to a wrong key rather than a telling 404.
   */
  private async prepareAlert(target: Extract<Target, { kind: 'alert' }>): Promise<Prepared> {
    const project = await this.resolver.project(target.projectPath, null);
    return { principal: ANONYMOUS, scope: project ? { project } : {} };
  }

  /**
   * Answers with a kept shared answer, or sends the request on: its write noted, its body stored by
   * the gateway when its route says so, a kept reused answer given, or forwarded as it is.
   */
  private dispatch(req: IncomingMessage, res: ServerResponse, trace: Trace, out: Outgoing): void {
    const shared = out.sharedKey ? this.sharedAnswers.get(out.sharedKey) : undefined;
    if (shared) return this.replay(res, trace, shared);
    if (out.writes && out.route.reusedAnswers) this.reusedAnswers.written(out.projectId);
    const spec = this.forwardSpec(req, res, trace, out);
    if (this.deps.transfers && storesBody(req, out)) {
      // signed twice there (pre-authorisation, stored body), never as is
      const uploads = { transfers: this.deps.transfers!, signer: this.deps.signer, refuse: (r: Refusal) => this.send(req, res, trace, r) };
      acceleratedUpload(req, res, trace.rid, uploads, spec, out.ctx).catch((e: unknown) => this.fail(req, res, trace, e));
      return;
    }
    const go = () => this.forwardSigned(req, res, trace, spec, out.ctx);
    const reused = out.reuse && this.reusedAnswers.get(out.reuse.key);
    if (!reused) return go();
    if (reused.file === undefined) return this.replay(res, trace, reused);
    // kept only from a send-file answer, which only accelerated transfers produce
    this.deps.transfers!.send(res, reused.file, reused.status, [...reused.headers, ...perRequestHeaders(trace.rid)]).then(
      (sent) => {
        if (sent) return;
        // the object is gone (replaced or deleted): the service answers
        this.reusedAnswers.delete(out.reuse!.key);
        go();
      },
      (e: unknown) => this.fail(req, res, trace, e),
    );
  }

  /** How the request is forwarded: upstream, timeouts, and what happens to its answer. */
  private forwardSpec(req: IncomingMessage, res: ServerResponse, trace: Trace, out: Outgoing): Omit<ForwardSpec, 'context'> {
    const { route, projectId, reuse } = out;
    const reusedUntil = (maxAge: number, a: Omit<KeptAnswer, 'until' | 'generation' | 'project'>) => ({ ...a, until: Date.now() + maxAge * 1000, generation: reuse!.generation, project: projectId });
    return {
      upstream: this.deps.upstreams[route.service],
      path: out.path,
      requestId: trace.rid,
      contextHeader: CONTEXT_HEADER,
      timeoutMs: this.deps.config.UPSTREAM_TIMEOUT_MS,
      sendTimeoutMs: this.deps.config.CLIENT_SEND_TIMEOUT_MS,
      keepAuthorization: !!route.keepAuthorization,
      fromProxy: this.proxies.fromProxy(req),
      onResponse: this.afterWrite(out),
      sendFile: out.sendsFiles
        ? (file, status, headers, maxAge) => {
            if (reuse && status === 200 && maxAge !== null) this.reusedAnswers.set(reuse.key, reusedUntil(maxAge, { file, status, headers }));
            this.sendStored(req, res, trace, file, status, headers);
          }
        : undefined,
      keeps: reuse ? KEEPS_BOTH : KEEPS_SHARED,
      // a JSON or form body without a length (chunked) is counted as it streams
      ...(limitedBody(req) && req.headers['content-length'] === undefined ? { maxBodyBytes: this.deps.config.MAX_REQUEST_BODY_BYTES, onBodyTooLarge: () => this.send(req, res, trace, refusals.entityTooLarge()) } : {}),
      // only a GET's answer is kept
      onKeptAnswer: out.sharedKey
        ? (kind, status, headers, body, maxAge) => {
            if (kind === 'shared') this.sharedAnswers.set(out.sharedKey!, { status, headers, body, until: Date.now() + maxAge * 1000 });
            else this.reusedAnswers.set(reuse!.key, reusedUntil(maxAge, { body, status, headers }));
          }
        : undefined,
    };
  }

  /** What a write's answer changes: the gateway's caches (before the client hears back), or its project's reused answers. */
  private afterWrite({ writes, route, projectId }: Outgoing): ForwardSpec['onResponse'] {
    if (!writes) return undefined;
    if (route.clearsCachesOnWrite) return (status) => status < 400 && this.invalidate();
    return route.reusedAnswers ? () => this.reusedAnswers.written(projectId) : undefined;
  }

  /** Signs the context and streams the request upstream (`100 Continue` first, when the client waits for it). */
  private forwardSigned(req: IncomingMessage, res: ServerResponse, trace: Trace, base: Omit<ForwardSpec, 'context'>, ctx: OutgoingContext): void {
    const spec: ForwardSpec = { ...base, context: this.deps.signer.sign(ctx) };
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    forward(req, res, spec, (timedOut) => this.send(req, res, trace, timedOut ? refusals.gatewayTimeout() : refusals.badGateway()));
  }

  /** A kept answer with a body, given again with this request's own headers. */
  private replay(res: ServerResponse, trace: Trace, answer: KeptAnswer): void {
    res.writeHead(answer.status, [...answer.headers, ...perRequestHeaders(trace.rid)]);
    res.end(answer.body);
  }

  /** An accelerated download: the stored object the service named, or its 404 when it is gone. */
  private sendStored(req: IncomingMessage, res: ServerResponse, trace: Trace, key: string, status: number, headers: string[]): void {
    this.deps.transfers!.send(res, key, status, [...headers, ...perRequestHeaders(trace.rid)]).then(
      (sent) => {
        if (!sent) this.send(req, res, trace, refusals.fileNotFound());
      },
      (e: unknown) => this.fail(req, res, trace, e),
    );
  }

  private async local(req: IncomingMessage, res: ServerResponse, trace: Trace, name: string): Promise<void> {
    if (name === 'health') return this.reply(req, res, trace, 200, 'text/plain', 'GitLab OK');
    if (name === 'metrics') return this.reply(req, res, trace, 200, this.metrics.contentType, await this.metrics.text());
    if (name === 'readiness') {
      this.ready().then(
        (failure) => {
          const check = failure ? { status: 'failed', message: failure } : { status: 'ok' };
          this.reply(req, res, trace, failure ? 503 : 200, 'application/json', JSON.stringify({ status: check.status, identity_check: [check] }));
        },
        (e: unknown) => this.fail(req, res, trace, e),
      );
      return;
    }
    this.reply(req, res, trace, 200, 'application/json', '{"status":"ok"}');
  }

  /**
   * Why the gateway cannot serve requests now, or null: it is stopping, or identity (every
   * authentication and `:id` resolution) does not answer ready. The signing key was loaded at start.
   */
  private async ready(): Promise<string | null> {
    if (this.draining) return 'shutting down';
    try {
      const r = await this.deps.upstreams.identity.pool.request({ path: '/-/readiness', method: 'GET', headersTimeout: 2000, bodyTimeout: 2000 });
      await r.body.dump();
      return r.statusCode === 200 ? null : `identity answered ${r.statusCode}`;
    } catch (e) {
      return `identity unreachable: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  private send(req: IncomingMessage, res: ServerResponse, trace: Trace, r: Refusal): void {
    const body = r.text ? String(r.body) : JSON.stringify(r.body);
    this.reply(req, res, trace, r.status, r.text ? 'text/plain' : 'application/json', body, r.headers);
  }

  private reply(req: IncomingMessage, res: ServerResponse, trace: Trace, status: number, type: string, body: string, extra?: Record<string, string>): void {
    replyDirectly(req, res, trace.rid, status, type, body, extra);
  }

  private fail(req: IncomingMessage, res: ServerResponse, trace: Trace, e: unknown): void {
    if (e instanceof RefusalError) return this.send(req, res, trace, e.refusal);
    // identity unreachable or failing: the gateway cannot authenticate or resolve
    this.deps.logger.error('gateway error', { rid: trace.rid, path: (req.url ?? '').split('?')[0], err: e instanceof Error ? e.message : String(e) });
    this.send(req, res, trace, refusals.badGateway());
  }

  private record(req: IncomingMessage, res: ServerResponse, trace: Trace): void {
    const status = res.writableFinished ? res.statusCode : 499;
    const ms = performance.now() - trace.started;
    this.metrics.observe(trace.route, req.method ?? '', status, ms / 1000);
    const url = req.url ?? '';
    const q = url.indexOf('?');
    this.deps.accessLog.write({
      method: req.method ?? '',
      path: q < 0 ? url : url.slice(0, q),
      status,
      ms: Math.round(ms * 100) / 100,
      rid: trace.rid,
      user: trace.user,
      service: trace.service,
    });
  }
}

/** Whether the request's body is JSON or a form: the bodies MAX_REQUEST_BODY_BYTES limits. */
function limitedBody(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('application/json') || type.startsWith('application/x-www-form-urlencoded');
}
