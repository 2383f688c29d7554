import type { IncomingMessage } from 'node:http';
import type { RequestContext, TransferFields } from '@anvil/auth';
import type { Principal } from './auth';
import { hasBody } from './proxy';
import type { Resolution } from './resolver';
import type { RouteBehaviour } from './routes';
import type { Forwardable } from './target';

/** Who the request acts as and what its `:id` resolved to. */
export interface Prepared {
  principal: Principal;
  scope: Resolution;
}

/** The signed context of a forwarded request, before the transfer phase is added. */
export type OutgoingContext = Omit<RequestContext, 'v' | 'exp'> & TransferFields;

/** One request on its way upstream: what its route asks of the gateway, and what it signs. */
export interface Outgoing {
  method: string;
  path: string;
  route: RouteBehaviour;
  projectId: number | null;
  /** Any method but GET and HEAD. */
  writes: boolean;
  /** The gateway sends the stored files the service names. */
  sendsFiles: boolean;
  /** Where a shared answer to it is kept (GETs only). */
  sharedKey: string | null;
  /** Where a reused answer to it is kept, and its project's generation as it is sent (GETs on such routes). */
  reuse: { key: string; generation: number } | null;
  ctx: OutgoingContext;
}

/** What building an Outgoing needs from the gateway. */
export interface OutgoingOptions {
  /** The public base URL put in every context. */
  base: string;
  /** Whether accelerated transfers are on. */
  transfers: boolean;
  /** A project's reused-answer generation now. */
  generation(project: number | null): number;
}

/** The request as it goes upstream: its forwarded path, its route's behaviour and its context. */
export function outgoing(req: IncomingMessage, rid: string, target: Forwardable, { principal, scope }: Prepared, opts: OutgoingOptions): Outgoing {
  const method = req.method ?? 'GET';
  const path = target.forwardPath(scope.project?.id);
  const { route } = target;
  const projectId = scope.project?.id ?? null;
  const sendsFiles = !!route.sendsFiles && opts.transfers;
  const reused = route.reusedAnswers && method === 'GET';
  return {
    method,
    path,
    route,
    projectId,
    writes: method !== 'GET' && method !== 'HEAD',
    sendsFiles,
    sharedKey: method === 'GET' ? `${target.service} ${path}` : null,
    // the same caller with the same rights asking the same
    reuse: reused ? { key: `${path}\n${JSON.stringify(principal)}\n${JSON.stringify(scope)}`, generation: opts.generation(projectId) } : null,
    ctx: {
      rid,
      m: method,
      p: path,
      aud: target.service,
      base: opts.base,
      user: principal.user,
      scopes: principal.scopes,
      auth: principal.auth,
      token_id: principal.tokenId,
      token_expires_at: principal.tokenExpiresAt,
      impersonator: principal.impersonator,
      project: scope.project,
      group: scope.group,
      ...(sendsFiles ? { send_file: true as const } : {}),
    },
  };
}

/** Whether the gateway stores this request's body itself: its route says so for its method and forwarded path. */
export function storesBody(req: IncomingMessage, out: Outgoing): boolean {
  const stores = out.route.storesBodies;
  return !!stores && stores.methods.includes(out.method) && hasBody(req) && (!stores.path || stores.path.test(out.path));
}
