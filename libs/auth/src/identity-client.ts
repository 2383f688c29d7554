import { Actor, GroupScope, ProjectScope } from './context';

/** The header carrying the shared service token on identity's /internal API. */
export const INTERNAL_TOKEN_HEADER = 'x-anvil-internal-token';

/** What identity answers for a token. */
export interface ResolvedToken {
  user: Actor;
  scopes: string[];
  token_id: number;
  expires_at: string | null;
}

export type TokenFailure = 'unknown' | 'expired' | 'revoked' | 'blocked';

/**
 * Client of identity's internal API (`/internal/v1/...`), used by the gateway to authenticate and
 * resolve `:id`, and by services that need authorization facts outside a request's own scope.
 * Every call carries the shared service token; identity refuses calls without it.
 */
export class IdentityClient {
  constructor(
    private readonly baseUrl: string,
    private readonly internalToken: string,
    /** A call that takes longer fails (the gateway answers 502/503 instead of hanging). */
    private readonly timeoutMs = 5000,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T | null }> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    if (res.status >= 500) throw new Error(`identity ${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return { status: res.status, json: text ? (JSON.parse(text) as T) : null };
  }

  /** A personal access token: the user and scopes, or why it is refused. */
  async resolveToken(token: string): Promise<ResolvedToken | { error: TokenFailure }> {
    const r = await this.call<ResolvedToken & { error?: TokenFailure }>('POST', '/internal/v1/tokens/resolve', { token });
    if (r.status === 200 && r.json && !r.json.error) return r.json;
    return { error: r.json?.error ?? 'unknown' };
  }

  /** A token by id for a user (registry JWTs carry these): valid → user and scopes. */
  async resolveTokenId(tokenId: number, userId: number): Promise<ResolvedToken | { error: TokenFailure }> {
    const r = await this.call<ResolvedToken & { error?: TokenFailure }>('POST', '/internal/v1/tokens/resolve', { token_id: tokenId, user_id: userId });
    if (r.status === 200 && r.json && !r.json.error) return r.json;
    return { error: r.json?.error ?? 'unknown' };
  }

  /** A user by numeric id or username (for `sudo`), or null. */
  async lookupUser(ref: string): Promise<Actor | null> {
    const r = await this.call<Actor>('GET', `/internal/v1/users/lookup?ref=${encodeURIComponent(ref)}`);
    return r.status === 200 ? r.json : null;
  }

  /** A project by id or full path with `userId`'s effective access level, or null when it does not exist. */
  async resolveProject(ref: string, userId: number | null): Promise<ProjectScope | null> {
    const r = await this.call<ProjectScope>('GET', `/internal/v1/projects/resolve?ref=${encodeURIComponent(ref)}&user_id=${userId ?? ''}`);
    return r.status === 200 ? r.json : null;
  }

  /** A group by id or full path with `userId`'s effective access level, or null when it does not exist. */
  async resolveGroup(ref: string, userId: number | null): Promise<GroupScope | null> {
    const r = await this.call<GroupScope>('GET', `/internal/v1/groups/resolve?ref=${encodeURIComponent(ref)}&user_id=${userId ?? ''}`);
    return r.status === 200 ? r.json : null;
  }

  /** Ids of the projects `userId` (null: anonymous) may read, at least at `minAccessLevel` when given. */
  async readableProjectIds(userId: number | null, minAccessLevel?: number): Promise<number[]> {
    const q = `user_id=${userId ?? ''}${minAccessLevel ? `&min_access_level=${minAccessLevel}` : ''}`;
    const r = await this.call<{ ids: number[] }>('GET', `/internal/v1/projects/readable?${q}`);
    return r.json?.ids ?? [];
  }
}
