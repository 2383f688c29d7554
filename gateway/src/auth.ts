import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Actor, IdentityClient, RequestContext, ResolvedToken, TokenFailure } from '@anvil/auth';
import { TtlCache } from './cache';
import { Credential, CredentialReader, QueryParams, readSudo } from './credentials';
import { refuse, Refusal, refusals } from './refusals';
import type { CredentialKind } from './routes';

/** Who the request acts as, after authentication and `sudo`. */
export interface Principal {
  user: Actor | null;
  scopes: string[];
  auth: RequestContext['auth'];
  tokenId?: number;
  /** The token's expiry as identity gave it (with `tokenId`). */
  tokenExpiresAt?: string | null;
  impersonator?: number;
}

/** What authentication looks at in a request. */
export interface AuthRequest {
  method: string;
  headers: IncomingHttpHeaders;
  query: QueryParams;
  /** Which credentials count on the route (a personal access token's scopes are judged only where one is read). */
  credentials: CredentialKind;
  /** The first path segment after /api/v4 (`user`/`users` routes also accept `read_user`). */
  area: string;
  /** Scopes beyond `read_api` the route accepts for GET and HEAD. */
  readScopes?: readonly string[];
}

type TokenResult = ResolvedToken | { error: TokenFailure };

const ANONYMOUS: Principal = Object.freeze({ user: null, scopes: [], auth: 'none' }) as Principal;
const TOKEN_REFUSALS: Record<TokenFailure, () => Refusal> = {
  unknown: refusals.badToken,
  expired: refusals.expiredToken,
  revoked: refusals.revokedToken,
  blocked: refusals.blocked,
};
const API_SCOPES = 'api read_api';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');
const isError = (r: TokenResult): r is { error: TokenFailure } => 'error' in r;

/** Whether a token with `scopes` may make this API request (GitLab's API guard). */
export function scopesAllow(scopes: string[], method: string, area: string, readScopes: readonly string[] = []): boolean {
  if (scopes.includes('api')) return true;
  const read = method === 'GET' || method === 'HEAD';
  if (!read) return false;
  if (scopes.includes('read_api') || readScopes.some((s) => scopes.includes(s))) return true;
  return (area === 'user' || area === 'users') && scopes.includes('read_user');
}

/**
 * Turns a request's credential into a Principal through identity's internal API, caching each
 * resolution briefly (token hash → result, negative results shorter), and applies scopes and sudo.
 */
export class Authenticator {
  private readonly tokens: TtlCache<TokenResult>;
  private readonly tokenIds: TtlCache<TokenResult>;
  private readonly users: TtlCache<Actor | null>;

  constructor(
    private readonly identity: IdentityClient,
    private readonly credentials: CredentialReader,
    ttlMs: number,
  ) {
    const negative = Math.min(ttlMs, 2000);
    this.tokens = new TtlCache<TokenResult>(ttlMs, negative, isError);
    this.tokenIds = new TtlCache<TokenResult>(ttlMs, negative, isError);
    this.users = new TtlCache<Actor | null>(ttlMs, negative, (a) => !a);
  }

  /** Drops every cached credential and user (identity changed something). */
  clear(): void {
    this.tokens.clear();
    this.tokenIds.clear();
    this.users.clear();
  }

  /** The request's principal; throws a RefusalError with GitLab's answer when it must be refused. */
  async authenticate(req: AuthRequest): Promise<Principal> {
    const cred = this.credentials.read(req.credentials, req.headers, req.query);
    const p = await this.principal(cred);
    // only a personal access token is judged here (routes that read other credentials leave scopes to their service)
    if (p.auth === 'pat' && !scopesAllow(p.scopes, req.method, req.area, req.readScopes)) {
      refuse(refusals.insufficientScope(API_SCOPES));
    }
    const sudo = readSudo(req.headers, req.query);
    return sudo ? this.sudo(p, sudo) : p;
  }

  private async principal(cred: Credential): Promise<Principal> {
    switch (cred.kind) {
      case 'none':
        return ANONYMOUS;
      case 'pat': {
        const r = await this.tokens.get(sha(cred.token), () => this.identity.resolveToken(cred.token));
        if (isError(r)) refuse(TOKEN_REFUSALS[r.error]());
        return { user: r.user, scopes: r.scopes, auth: 'pat', tokenId: r.token_id, tokenExpiresAt: r.expires_at };
      }
      case 'jwt':
        return this.fromJwt(cred.tokenId, cred.userId);
      case 'basic':
        return this.fromBasic(cred.password);
    }
  }

  /** A verified JWT naming token `tokenId` of `userId`: that token if still valid and its user's; otherwise anonymous. */
  private async fromJwt(tokenId: number, userId: number): Promise<Principal> {
    const r = await this.tokenIds.get(`${tokenId}:${userId}`, () => this.identity.resolveTokenId(tokenId, userId));
    if (isError(r) || r.user.id !== userId) return ANONYMOUS;
    return { user: r.user, scopes: r.scopes, auth: 'jwt', tokenId: r.token_id, tokenExpiresAt: r.expires_at };
  }

  /**
   * Basic where it counts: the password as a personal access token; anything else (an account
   * password, a revoked or unknown token) counts as no credentials.
   */
  private async fromBasic(password: string): Promise<Principal> {
    if (!password) return ANONYMOUS;
    const r = await this.tokens.get(sha(password), () => this.identity.resolveToken(password));
    return isError(r) ? ANONYMOUS : { user: r.user, scopes: r.scopes, auth: 'basic', tokenId: r.token_id, tokenExpiresAt: r.expires_at };
  }

  /** GitLab's sudo rules, in GitLab's order. */
  private async sudo(p: Principal, ref: string): Promise<Principal> {
    if (!p.user) refuse(refusals.unauthorized());
    if (!p.user.admin) refuse(refusals.forbidden('Must be admin to use sudo'));
    if (p.tokenId === undefined) refuse(refusals.forbidden('Must be authenticated using an OAuth or personal access token to use sudo'));
    if (!p.scopes.includes('sudo')) refuse(refusals.insufficientScope('sudo'));
    const target = await this.users.get(ref, () => this.identity.lookupUser(ref));
    if (!target) refuse(refusals.resourceNotFound(`User with ID or username '${ref}'`));
    return { ...p, user: target, impersonator: p.user.id };
  }
}
