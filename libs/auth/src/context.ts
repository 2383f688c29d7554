import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';
import { optionalSodium, type Sodium } from './sodium';

/** The header that carries the gateway-signed request context. Never accepted from outside. */
export const CONTEXT_HEADER = 'x-anvil-context';
/** Every header with this prefix is dropped by the gateway when it arrives from a client. */
export const INTERNAL_HEADER_PREFIX = 'x-anvil-';
/** How long a signed context is valid past the end of its bucket (ms). A request is signed just before it is forwarded. */
export const CONTEXT_TTL_MS = 5_000;
/**
 * A context signed without an explicit `exp` expires at the end of the current bucket of this length
 * plus CONTEXT_TTL_MS, so identical contexts signed within one bucket are byte-identical headers
 * (signed once by the gateway, verified once by a service).
 */
export const CONTEXT_EXP_BUCKET_MS = 5_000;
/** The longest a context signed with the default expiry lives after it is signed (ms). */
export const CONTEXT_MAX_LIFETIME_MS = CONTEXT_EXP_BUCKET_MS + CONTEXT_TTL_MS;
/** How many signed or verified headers a signer or verifier keeps; the cache is emptied when full. */
export const CONTEXT_CACHE_ENTRIES = 4096;

/** GitLab access levels. */
export const AccessLevel = { NONE: 0, MINIMAL: 5, GUEST: 10, PLANNER: 15, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50 } as const;

export type Visibility = 'private' | 'internal' | 'public';

/** The authenticated user as the gateway resolved it (after `sudo`, the impersonated user). */
export interface Actor {
  id: number;
  username: string;
  name: string;
  admin: boolean;
  state: string;
}

/** A project that the route's `:id` resolved to, with the caller's effective membership level. */
export interface ProjectScope {
  id: number;
  path_with_namespace: string;
  namespace_id: number;
  /** Set when the namespace is a group. */
  group_id: number | null;
  visibility: Visibility;
  /** The caller's effective access level (direct or inherited from groups); 0 for none. */
  access_level: number;
}

/** A group that the route's `:id` resolved to, with the caller's effective membership level. */
export interface GroupScope {
  id: number;
  full_path: string;
  parent_id: number | null;
  visibility: Visibility;
  access_level: number;
  /**
   * True when a signed-in caller may read the group without any level on it: they can see a
   * project inside it or its subgroups (GitLab's GroupPolicy `has_projects`). Grants reading only;
   * `access_level` stays what membership gives (0). Absent means false.
   */
  readable?: boolean;
}

/** What every service knows about a request: who, with which token scopes, on what. */
export interface RequestContext {
  v: 1;
  /**
   * Request id. Never signed (it would make every header unique and uncacheable): services read the
   * request id from the X-Request-Id header. Signers drop it.
   */
  rid?: string;
  /** Method and path (with query) the signature is bound to. */
  m: string;
  p: string;
  /** Expiry, epoch milliseconds: by default at most CONTEXT_MAX_LIFETIME_MS after signing. */
  exp: number;
  /** The service the context was signed for (its audience); every other service refuses it. */
  aud: string;
  /** The public base URL, e.g. http://127.0.0.1:8080 (for Link headers and web_url). */
  base: string;
  user: Actor | null;
  /** Scopes of the credential; empty for anonymous. */
  scopes: string[];
  auth: 'pat' | 'jwt' | 'basic' | 'none';
  /** The personal access token used (its id), when one was. */
  token_id?: number;
  /** When that token expires (`YYYY-MM-DD`, null for never), so no service has to ask identity. */
  token_expires_at?: string | null;
  /** The administrator who used `sudo`, when one did. */
  impersonator?: number;
  project?: ProjectScope;
  group?: GroupScope;
}

function b64u(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

/** A fresh Ed25519 key pair as PEM strings (the gateway keeps the private one). */
export function generateContextKeys(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** What a signer is given: the context without its version, and optionally its expiry. */
export type UnsignedContext = Omit<RequestContext, 'v' | 'exp'> & { exp?: number };

/** The default expiry of a context signed at `now`: the end of its CONTEXT_EXP_BUCKET_MS bucket + CONTEXT_TTL_MS. */
export function contextExpiry(now: number): number {
  return (Math.floor(now / CONTEXT_EXP_BUCKET_MS) + 1) * CONTEXT_EXP_BUCKET_MS + CONTEXT_TTL_MS;
}

/**
 * The JSON that is signed (base64url-encoded) for `ctx` at `now`: `rid` left out, `v` 1, `exp` as
 * given or `contextExpiry(now)`. Every signer builds its payload here, so they stay byte-identical.
 */
export function contextPayloadJson(ctx: UnsignedContext, now: number): string {
  const { rid, ...signed } = ctx;
  void rid;
  return JSON.stringify({ ...signed, v: 1, exp: ctx.exp ?? contextExpiry(now) });
}

/**
 * A context no other request carries: one naming an upload body the gateway stored (`transfer.phase
 * = 'stored'`, a fresh object key each time). Caching it, signed or verified, would only push out
 * headers that recur, and keep each one alive until its bucket ends: long enough to be promoted to
 * V8's old generation, where a few KB per upload pile up until a major collection.
 */
function oneShot(ctx: UnsignedContext | RequestContext): boolean {
  const transfer = (ctx as { transfer?: { phase?: unknown } }).transfer;
  return transfer?.phase === 'stored';
}

/**
 * Header values by the exact payload JSON they sign, so an identical context is signed once. Holds at
 * most CONTEXT_CACHE_ENTRIES, and only for the current expiry bucket (a new bucket means new payloads).
 * Ed25519 signatures are deterministic: a cached value is the value signing again would give.
 */
export class SignedContextCache {
  private readonly headers = new Map<string, string>();
  private bucket = -1;

  /** The header signed earlier for `json` (the payload of `ctx`) in the bucket of `now`, if any. */
  get(ctx: UnsignedContext, json: string, now: number): string | undefined {
    if (oneShot(ctx)) return undefined;
    const bucket = Math.floor(now / CONTEXT_EXP_BUCKET_MS);
    if (bucket !== this.bucket) {
      this.headers.clear();
      this.bucket = bucket;
    }
    return this.headers.get(json);
  }

  set(ctx: UnsignedContext, json: string, header: string): void {
    if (oneShot(ctx)) return;
    if (this.headers.size >= CONTEXT_CACHE_ENTRIES) this.headers.clear();
    this.headers.set(json, header);
  }

  /** How many signed headers are kept (for tests). */
  get size(): number {
    return this.headers.size;
  }
}

/** Signs request contexts. Only the gateway holds one. */
export class ContextSigner {
  private readonly key: KeyObject;
  private readonly cache = new SignedContextCache();
  constructor(privateKeyPem: string) {
    this.key = createPrivateKey(privateKeyPem);
  }

  /** Returns the header value for `ctx`, bound to its method and path, valid until its `exp` (default `contextExpiry`). */
  sign(ctx: UnsignedContext): string {
    const now = Date.now();
    const json = contextPayloadJson(ctx, now);
    const cached = this.cache.get(ctx, json, now);
    if (cached) return cached;
    const payload = b64u(json);
    const header = `${payload}.${b64u(sign(null, Buffer.from(payload), this.key))}`;
    this.cache.set(ctx, json, header);
    return header;
  }

  /** How many signed headers are kept (for tests). */
  get cachedHeaders(): number {
    return this.cache.size;
  }
}

export class ContextError extends Error {}

/**
 * A context the gateway really signed for this request and service, presented after its expiry: the
 * service took too long to get to it (overload), or it was replayed. No access either way.
 */
export class ContextExpiredError extends ContextError {}

/** What a verified header carries that is checked on every request, and its payload's JSON. */
interface Verified {
  m: string;
  p: string;
  exp: number;
  aud: string;
  json: string;
}

/** Verifies request contexts with the gateway's public key. Every service holds one. */
export class ContextVerifier {
  private readonly key: KeyObject;
  /**
   * Headers whose signature verified, by the full header string. A signature check is a pure function
   * of the header's bytes and the key: the same bytes verify the same every time, so skipping it for
   * bytes that already verified accepts nothing a fresh check would refuse. What does depend on the
   * request and the clock (expiry, method and path) is checked on every call, hit or not. Only headers
   * that passed every check are added; a failed verification is never cached. At most
   * CONTEXT_CACHE_ENTRIES, emptied when full.
   */
  private readonly verified = new Map<string, Verified>();
  private readonly sodium: Sodium | null;
  private readonly rawKey: Buffer;

  /** `audience`: the name of the service verifying; contexts signed for any other service are refused. */
  constructor(
    publicKeyPem: string,
    private readonly audience: string,
  ) {
    this.key = createPublicKey(publicKeyPem);
    if (this.key.asymmetricKeyType !== 'ed25519') throw new Error('the context public key must be an Ed25519 key');
    this.rawKey = Buffer.from(this.key.export({ format: 'jwk' }).x as string, 'base64url');
    this.sodium = optionalSodium('ANVIL_SODIUM');
  }

  /** Which Ed25519 implementation verifies. */
  get implementation(): 'libsodium' | 'node:crypto' {
    return this.sodium ? 'libsodium' : 'node:crypto';
  }

  private signatureValid(payload: string, sig: Buffer): boolean {
    if (sig.length !== 64) return false;
    const message = Buffer.from(payload, 'latin1');
    return this.sodium ? this.sodium.crypto_sign_verify_detached(sig, message, this.rawKey) : verify(null, message, this.key, sig);
  }

  /**
   * Returns the context if the header is signed by the gateway for this service, not expired, and
   * bound to this method and path; throws ContextError otherwise. Each call returns a fresh object.
   */
  verify(header: string | undefined, method: string, path: string): RequestContext {
    if (!header) throw new ContextError('missing context');
    const hit = this.verified.get(header);
    if (hit) {
      checkRequest(hit, this.audience, method, path);
      return JSON.parse(hit.json) as RequestContext;
    }
    const dot = header.indexOf('.');
    if (dot < 1) throw new ContextError('malformed context');
    const payload = header.slice(0, dot);
    const sig = Buffer.from(header.slice(dot + 1), 'base64url');
    if (!this.signatureValid(payload, sig)) throw new ContextError('bad signature');
    const json = Buffer.from(payload, 'base64url').toString('utf8');
    let ctx: RequestContext;
    try {
      ctx = JSON.parse(json) as RequestContext;
    } catch {
      throw new ContextError('malformed context');
    }
    if (ctx.v !== 1) throw new ContextError('unknown context version');
    checkRequest(ctx, this.audience, method, path);
    if (oneShot(ctx)) return ctx;
    if (this.verified.size >= CONTEXT_CACHE_ENTRIES) this.verified.clear();
    this.verified.set(header, { m: ctx.m, p: ctx.p, exp: ctx.exp, aud: ctx.aud, json });
    return ctx;
  }

  /** How many verified headers are cached (for tests). */
  get cachedHeaders(): number {
    return this.verified.size;
  }
}

/** The checks that depend on the request and the clock: signed for this service, not expired, bound to this method and path. */
function checkRequest(ctx: Pick<RequestContext, 'm' | 'p' | 'exp' | 'aud'>, audience: string, method: string, path: string): void {
  if (ctx.aud !== audience) throw new ContextError('context signed for another service');
  if (ctx.m !== method.toUpperCase() || ctx.p !== path) throw new ContextError('context bound to another request');
  if (typeof ctx.exp !== 'number' || ctx.exp < Date.now()) throw new ContextExpiredError('expired context');
}
