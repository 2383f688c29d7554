import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';

/** The header that carries the gateway-signed request context. Never accepted from outside. */
export const CONTEXT_HEADER = 'x-anvil-context';
/** Every header with this prefix is dropped by the gateway when it arrives from a client. */
export const INTERNAL_HEADER_PREFIX = 'x-anvil-';
/** How long a signed context is valid (ms). A request is signed just before it is forwarded. */
export const CONTEXT_TTL_MS = 60_000;

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
  /** Request id (also sent as X-Request-Id). */
  rid: string;
  /** Method and path (with query) the signature is bound to. */
  m: string;
  p: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
  /** The public base URL, e.g. http://127.0.0.1:8080 (for Link headers and web_url). */
  base: string;
  user: Actor | null;
  /** Scopes of the credential; empty for anonymous. */
  scopes: string[];
  auth: 'pat' | 'jwt' | 'basic' | 'none';
  /** The personal access token used (its id), when one was. */
  token_id?: number;
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

/** Signs request contexts. Only the gateway holds one. */
export class ContextSigner {
  private readonly key: KeyObject;
  constructor(privateKeyPem: string) {
    this.key = createPrivateKey(privateKeyPem);
  }

  /** Returns the header value for `ctx`, bound to its method and path and valid for CONTEXT_TTL_MS. */
  sign(ctx: Omit<RequestContext, 'v' | 'exp'> & { exp?: number }): string {
    const payload = b64u(JSON.stringify({ ...ctx, v: 1, exp: ctx.exp ?? Date.now() + CONTEXT_TTL_MS }));
    const sig = sign(null, Buffer.from(payload), this.key);
    return `${payload}.${b64u(sig)}`;
  }
}

export class ContextError extends Error {}

/** Verifies request contexts with the gateway's public key. Every service holds one. */
export class ContextVerifier {
  private readonly key: KeyObject;
  constructor(publicKeyPem: string) {
    this.key = createPublicKey(publicKeyPem);
  }

  /**
   * Returns the context if the header is signed by the gateway, not expired, and bound to this
   * method and path; throws ContextError otherwise.
   */
  verify(header: string | undefined, method: string, path: string): RequestContext {
    if (!header) throw new ContextError('missing context');
    const dot = header.indexOf('.');
    if (dot < 1) throw new ContextError('malformed context');
    const payload = header.slice(0, dot);
    const sig = Buffer.from(header.slice(dot + 1), 'base64url');
    if (!verify(null, Buffer.from(payload), this.key, sig)) throw new ContextError('bad signature');
    let ctx: RequestContext;
    try {
      ctx = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as RequestContext;
    } catch {
      throw new ContextError('malformed context');
    }
    if (ctx.v !== 1) throw new ContextError('unknown context version');
    if (typeof ctx.exp !== 'number' || ctx.exp < Date.now()) throw new ContextError('expired context');
    if (ctx.m !== method.toUpperCase() || ctx.p !== path) throw new ContextError('context bound to another request');
    return ctx;
  }
}
