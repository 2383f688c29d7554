import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StoredUpload, UploadReservation } from '@anvil/auth';
import type { OutgoingContext } from './outgoing';
import { forward, type ForwardSpec, isUpstreamTimeout, requestHeaders, responseHeaders } from './proxy';
import { type Refusal, refusals } from './refusals';
import type { GatewaySigner } from './signer';
import type { Transfers } from './transfers';

/**
 * Largest declared upload stored before the service is asked: one trip to it (the stored body)
 * instead of two (a pre-authorisation overlapping the body, then the stored body), which for small
 * bodies costs more than the overlap saves. A refused one costs at most this much writing and deleting.
 */
export const PREAUTHORIZE_ABOVE = 4 * 1024 * 1024;

/** What an accelerated upload needs from the gateway. */
export interface UploadDeps {
  transfers: Transfers;
  signer: GatewaySigner;
  /** Answers the client with a gateway refusal (GitLab's body). */
  refuse(r: Refusal): void;
}

/**
 * An upload the gateway stores itself: the body goes to storage with its digests and the request is
 * forwarded without it, naming what was stored. A body of a known length up to
 * `PREAUTHORIZE_ABOVE` takes one trip to the service: stored, then forwarded (the service runs
 * every check then, and a refusal discards it). A larger one, one of unknown length, or one whose
 * client waits for `100 Continue` is pre-authorised first: the service's checks run while the body
 * streams (or before the client sends a byte), and a refusal stops the body, discards it and is
 * relayed as the service gave it. A body nobody claimed is deleted.
 */
export async function acceleratedUpload(req: IncomingMessage, res: ServerResponse, rid: string, deps: UploadDeps, spec: Omit<ForwardSpec, 'context'>, ctx: OutgoingContext): Promise<void> {
  const { transfers } = deps;
  const length = req.headers['content-length'];
  const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
  const waitsForContinue = req.headers.expect?.toLowerCase() === '100-continue';
  if (declared !== null && declared <= PREAUTHORIZE_ABOVE && !waitsForContinue) {
    const stored = await transfers.begin(req, declared).done;
    if (stored === 'aborted') return;
    if (stored === 'too-large') return deps.refuse(refusals.fileTooLarge());
    return forwardStored(req, res, deps, spec, ctx, stored);
  }
  const authorizeCtx: typeof ctx = { ...ctx, transfer: { phase: 'authorize', declared } };
  const authorizing = transfers.authorize(spec.upstream, req.method ?? 'PUT', spec.path, requestHeaders(req, { ...spec, bodyless: true, context: deps.signer.sign(authorizeCtx) }), spec.timeoutMs);
  let body = waitsForContinue ? null : transfers.begin(req);
  let answer: Awaited<typeof authorizing>;
  try {
    answer = await authorizing;
  } catch (e) {
    body?.cancel();
    return deps.refuse(isUpstreamTimeout(e) ? refusals.gatewayTimeout() : refusals.badGateway());
  }
  if ('refused' in answer) {
    body?.cancel();
    // the rest of the body stays unread: the connection closes after the answer
    res.shouldKeepAlive = false;
    res.writeHead(answer.refused.status, responseHeaders(answer.refused.headers, rid));
    res.end(answer.refused.body);
    return;
  }
  if (body) body.limit(answer.limit);
  else {
    res.writeContinue();
    body = transfers.begin(req, answer.limit);
  }
  const stored = await body.done;
  if (stored === 'aborted') return;
  if (stored === 'too-large') return deps.refuse(refusals.fileTooLarge());
  forwardStored(req, res, deps, spec, ctx, stored, answer.reservation);
}

/** Forwards an upload without its body, naming the object stored for it (deleted unless the service takes it). */
function forwardStored(req: IncomingMessage, res: ServerResponse, deps: UploadDeps, spec: Omit<ForwardSpec, 'context'>, ctx: OutgoingContext, stored: StoredUpload, reservation?: UploadReservation): void {
  const { transfers } = deps;
  const storedCtx: typeof ctx = { ...ctx, transfer: { phase: 'stored', upload: stored, ...(reservation ? { reservation } : {}) } };
  const final: ForwardSpec = {
    ...spec,
    bodyless: true,
    context: deps.signer.sign(storedCtx),
    onResponse: (status) => {
      spec.onResponse?.(status);
      if (status >= 300) void transfers.discard(stored.key);
    },
  };
  forward(req, res, final, (timedOut) => {
    void transfers.discard(stored.key);
    deps.refuse(timedOut ? refusals.gatewayTimeout() : refusals.badGateway());
  });
}
