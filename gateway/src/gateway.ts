import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTEXT_HEADER, IdentityClient, RequestContext, type TransferFields } from '@anvil/auth';
import type { Logger } from '@anvil/http';
import { AccessLog } from './access-log';
import { watchBody } from './client-timeouts';
import { Authenticator, Principal } from './auth';
import type { GatewayConfig } from './config';
import { QueryParams } from './credentials';
import { RouteMatcher } from './matcher';
import { forward, ForwardSpec, hasBody, perRequestHeaders, Upstream } from './proxy';
import { RateLimiter } from './rate-limit';
import { refuse, Refusal, RefusalError, refusals } from './refusals';
import { Resolution, ScopeResolver } from './resolver';
import { ROUTES, ServiceName } from './routes';
import type { GatewaySigner } from './signer';
import { parseTarget, Target } from './target';
import { acceleratedUpload, CONAN_FILE_UPLOAD } from './accelerated-upload';
import { ReusedAnswers } from './reused-answers';
import { SharedAnswers } from './shared-answers';
import type { Transfers } from './transfers';

/** What the gateway needs, already built. */
export interface GatewayDeps {
  config: GatewayConfig;
  signer: GatewaySigner;
  identity: IdentityClient;
  upstreams: Record<ServiceName, Upstream>;
  accessLog: AccessLog;
  logger: Logger;
  /** Accelerated registry transfers (absent: every body is proxied). */
  transfers?: Transfers;
}

/** Per-request facts the access log reports. */
interface Trace {
  started: number;
  rid: string;
  user: number | null;
  service: ServiceName | null;
}

type Forwardable = Extract<Target, { kind: 'api' | 'alert' }>;

/** Who the request acts as and what its `:id` resolved to. */
interface Prepared {
  principal: Principal;
  scope: Resolution;
}

const ANONYMOUS: Principal = Object.freeze({ user: null, scopes: [], auth: 'none' }) as Principal;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BIG_BODY = 64 * 1024;
/** Security headers GitLab sets on every API response. */
const SECURITY_HEADERS = { 'X-Frame-Options': 'SAMEORIGIN', 'X-Content-Type-Options': 'nosniff' };

/**
 * The request pipeline: route → authenticate → rate limit → resolve `:id` → sign context → forward.
 * Every refusal is GitLab's body; every request produces one access-log record.
 */
export class Gateway {
  readonly matcher = new RouteMatcher(ROUTES);
  readonly auth: Authenticator;
  readonly resolver: ScopeResolver;
  private readonly limiter?: RateLimiter;
  private readonly counts = new Map<number, number>();
  /** Answers services marked as the same for every caller (Conan `ping`). */
  readonly sharedAnswers = new SharedAnswers();
  /** Answers the registry marked reusable for the same caller (Conan v2 file downloads, authenticate). */
  readonly reusedAnswers = new ReusedAnswers();

  constructor(private readonly deps: GatewayDeps) {
    const ttl = deps.config.AUTH_CACHE_TTL_MS;
    this.auth = new Authenticator(deps.identity, deps.config.CONAN_JWT_SECRET as string, ttl);
    this.resolver = new ScopeResolver(deps.identity, ttl);
    if (deps.config.RATE_LIMIT_PER_MINUTE > 0) this.limiter = new RateLimiter(deps.config.RATE_LIMIT_PER_MINUTE);
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
    };
    res.once('close', () => this.record(req, res, trace));
    if (hasBody(req)) watchBody(req, res, this.deps.config.CLIENT_BODY_TIMEOUT_MS, () => this.send(req, res, trace, refusals.requestTimeout()));
    this.serve(req, res, trace).catch((e: unknown) => this.fail(req, res, trace, e));
  };

  /**
   * Identity changed something: drop what may now be stale. A registry event (another replica wrote
   * a project's packages): that project's reused answers go.
   */
  invalidate(eventType?: string, data?: unknown): void {
    if (eventType?.startsWith('registry.')) {
      const project = (data as { project_id?: unknown } | undefined)?.project_id;
      this.reusedAnswers.written(typeof project === 'number' ? project : null);
      return;
    }
    if (!eventType || eventType.startsWith('identity.user.') || eventType.startsWith('identity.token.')) this.auth.clear();
    this.resolver.clear();
    this.reusedAnswers.clear();
  }

  stop(): void {
    this.limiter?.stop();
    this.deps.accessLog.flush();
  }

  /** Prometheus text: responses by status. */
  metrics(): string {
    const lines = ['# HELP gateway_responses_total Responses by status', '# TYPE gateway_responses_total counter'];
    for (const [status, n] of this.counts) lines.push(`gateway_responses_total{status="${status}"} ${n}`);
    if (this.deps.transfers) lines.push('# HELP gateway_upload_bodies_receiving Upload bodies being stored now', '# TYPE gateway_upload_bodies_receiving gauge', `gateway_upload_bodies_receiving ${this.deps.transfers.receiving}`);
    return lines.join('\n') + '\n';
  }

  private async serve(req: IncomingMessage, res: ServerResponse, trace: Trace): Promise<void> {
    const target = parseTarget(req.url ?? '/', this.matcher, req.headers.authorization);
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
    this.dispatch(req, res, trace, target, prepared);
  }

  /** API routes: authenticate (scopes, sudo), rate limit, resolve `:id`. Refusals are thrown. */
  private async prepareApi(req: IncomingMessage, trace: Trace, target: Extract<Target, { kind: 'api' }>): Promise<Prepared> {
    const registry = target.route.auth === 'registry';
    // GitLab's Conan routes: FIPS mode first, before any credential is looked at
    if (registry && this.deps.config.FIPS_MODE) refuse(refusals.messageNotFound());
    const method = req.method ?? 'GET';
    const principal = await this.auth.authenticate({ method, headers: req.headers, query: new QueryParams(target.query), registry, area: target.segs[0] });
    trace.user = principal.user?.id ?? null;
    const limited = this.limiter?.take(principal.user ? `u${principal.user.id}` : `ip${req.socket.remoteAddress}`, !!principal.user);
    if (limited) refuse(limited);
    // and a Conan write without a caller is 401 before its project is looked up (`authenticate_non_get!`)
    const signInFirst = target.route.authenticated || (registry && method !== 'GET' && method !== 'HEAD');
    if (signInFirst && !principal.user) refuse(refusals.unauthorized());
    return { principal, scope: await this.resolver.resolve(target.route, target.segs, principal.user) };
  }

  /** Alert endpoints: the integration key is the alerting service's to check; the project must exist. */
  private async prepareAlert(target: Extract<Target, { kind: 'alert' }>): Promise<Prepared> {
    const project = await this.resolver.project(target.projectPath, null);
    if (!project) refuse(refusals.messageNotFound());
    return { principal: ANONYMOUS, scope: { project } };
  }

  /** Signs the context for the forwarded method and path, and streams the request upstream. */
  private dispatch(req: IncomingMessage, res: ServerResponse, trace: Trace, target: Forwardable, { principal, scope }: Prepared): void {
    const method = req.method ?? 'GET';
    const path = target.forwardPath(scope.project?.id);
    const answerKey = method === 'GET' ? `${target.service} ${path}` : null;
    const shared = answerKey ? this.sharedAnswers.get(answerKey) : undefined;
    if (shared) {
      res.writeHead(shared.status, [...shared.headers, ...perRequestHeaders(trace.rid)]);
      res.end(shared.body);
      return;
    }
    const registry = target.kind === 'api' && target.service === 'registry';
    const accelerated = registry && !!this.deps.transfers;
    const projectId = scope.project?.id ?? null;
    // the same caller with the same rights asking the same: what the registry answered before, if it said so
    const reuse = registry && method === 'GET' ? { key: `${path}\n${JSON.stringify(principal)}\n${JSON.stringify(scope)}`, generation: this.reusedAnswers.generation(projectId) } : null;
    const writes = registry && method !== 'GET' && method !== 'HEAD';
    if (writes) this.reusedAnswers.written(projectId);
    const ctx: Omit<RequestContext, 'v' | 'exp'> & TransferFields = {
      rid: trace.rid,
      m: method,
      p: path,
      base: this.deps.config.PUBLIC_URL as string,
      user: principal.user,
      scopes: principal.scopes,
      auth: principal.auth,
      token_id: principal.tokenId,
      token_expires_at: principal.tokenExpiresAt,
      impersonator: principal.impersonator,
      project: scope.project,
      group: scope.group,
      ...(accelerated ? { send_file: true as const } : {}),
    };
    const invalidates = target.service === 'identity' && method !== 'GET' && method !== 'HEAD';
    const base: Omit<ForwardSpec, 'context'> = {
      upstream: this.deps.upstreams[target.service],
      path,
      requestId: trace.rid,
      contextHeader: CONTEXT_HEADER,
      timeoutMs: this.deps.config.UPSTREAM_TIMEOUT_MS,
      sendTimeoutMs: this.deps.config.CLIENT_SEND_TIMEOUT_MS,
      keepAuthorization: target.kind === 'alert' || target.route.auth === 'registry',
      // identity changed something through us: drop cached tokens and scopes before the client hears back
      onResponse: invalidates ? (status) => status < 400 && this.invalidate() : writes ? () => this.reusedAnswers.written(projectId) : undefined,
      sendFile: accelerated
        ? (file, status, headers, maxAge) => {
            if (reuse && status === 200 && maxAge !== null) this.reusedAnswers.set(reuse.key, { file, status, headers, until: Date.now() + maxAge * 1000, generation: reuse.generation, project: projectId });
            this.sendStored(req, res, trace, file, status, headers);
          }
        : undefined,
      onSharedAnswer: answerKey ? (status, headers, body, maxAge) => this.sharedAnswers.set(answerKey, { status, headers, body, until: Date.now() + maxAge * 1000 }) : undefined,
      onReusableAnswer: reuse ? (status, headers, body, maxAge) => this.reusedAnswers.set(reuse.key, { body, status, headers, until: Date.now() + maxAge * 1000, generation: reuse.generation, project: projectId }) : undefined,
    };
    if (accelerated && method === 'PUT' && hasBody(req) && CONAN_FILE_UPLOAD.test(path)) {
      // signed twice there (pre-authorisation, stored body), never as is
      const uploads = { transfers: this.deps.transfers!, signer: this.deps.signer, refuse: (r: Refusal) => this.send(req, res, trace, r) };
      acceleratedUpload(req, res, trace.rid, uploads, base, ctx).catch((e: unknown) => this.fail(req, res, trace, e));
      return;
    }
    const go = () => {
      const spec: ForwardSpec = { ...base, context: this.deps.signer.sign(ctx) };
      if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
      forward(req, res, spec, (timedOut) => this.send(req, res, trace, timedOut ? refusals.gatewayTimeout() : refusals.badGateway()));
    };
    const reused = reuse && this.reusedAnswers.get(reuse.key);
    if (!reused) return go();
    const headers = [...reused.headers, ...perRequestHeaders(trace.rid)];
    if (reused.file === undefined) {
      res.writeHead(reused.status, headers);
      res.end(reused.body);
      return;
    }
    // kept only from a send-file answer, which only accelerated transfers produce
    this.deps.transfers!.send(res, reused.file, reused.status, headers).then(
      (sent) => {
        if (sent) return;
        // the object is gone (replaced or deleted): the service answers
        this.reusedAnswers.delete(reuse.key);
        go();
      },
      (e: unknown) => this.fail(req, res, trace, e),
    );
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

  private local(req: IncomingMessage, res: ServerResponse, trace: Trace, name: string): void {
    if (name === 'health') return this.reply(req, res, trace, 200, 'text/plain', 'GitLab OK');
    if (name === 'metrics') return this.reply(req, res, trace, 200, 'text/plain; version=0.0.4', this.metrics());
    this.reply(req, res, trace, 200, 'application/json', '{"status":"ok"}');
  }

  private send(req: IncomingMessage, res: ServerResponse, trace: Trace, r: Refusal): void {
    const body = r.text ? String(r.body) : JSON.stringify(r.body);
    this.reply(req, res, trace, r.status, r.text ? 'text/plain' : 'application/json', body, r.headers);
  }

  private reply(req: IncomingMessage, res: ServerResponse, trace: Trace, status: number, type: string, body: string, extra?: Record<string, string>): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const len = Number(req.headers['content-length'] ?? 0);
    // An unread upload is not drained: the connection closes after this answer.
    if (req.headers['transfer-encoding'] || len > BIG_BODY) res.shouldKeepAlive = false;
    res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      ...SECURITY_HEADERS,
      'X-Request-Id': trace.rid,
      ...extra,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private fail(req: IncomingMessage, res: ServerResponse, trace: Trace, e: unknown): void {
    if (e instanceof RefusalError) return this.send(req, res, trace, e.refusal);
    // identity unreachable or failing: the gateway cannot authenticate or resolve
    this.deps.logger.error('gateway error', { rid: trace.rid, path: (req.url ?? '').split('?')[0], err: e instanceof Error ? e.message : String(e) });
    this.send(req, res, trace, refusals.badGateway());
  }

  private record(req: IncomingMessage, res: ServerResponse, trace: Trace): void {
    const status = res.writableFinished ? res.statusCode : 499;
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    const url = req.url ?? '';
    const q = url.indexOf('?');
    this.deps.accessLog.write({
      method: req.method ?? '',
      path: q < 0 ? url : url.slice(0, q),
      status,
      ms: Math.round((performance.now() - trace.started) * 100) / 100,
      rid: trace.rid,
      user: trace.user,
      service: trace.service,
    });
  }
}
