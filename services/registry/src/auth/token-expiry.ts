import type { IdentityClient, RequestContext } from '@anvil/auth';
import { ServiceUnavailableError, UnauthorizedError } from '@anvil/http';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * When a personal access token expires, for the JWT's `exp`. The gateway may pass it in the context
 * (`token_expires_at`); otherwise identity is asked, and answers are cached for a minute. A token
 * identity no longer accepts → 401; identity unreachable → 503.
 */
export class TokenExpiry {
  private readonly cache = new Map<string, { value: string | null; at: number }>();

  constructor(private readonly identity: IdentityClient) {}

  async of(ctx: RequestContext, tokenId: number, userId: number): Promise<string | null> {
    const given = ctx.token_expires_at;
    if (given !== undefined) return given;
    const key = `${tokenId}:${userId}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    let r: Awaited<ReturnType<IdentityClient['resolveTokenId']>>;
    try {
      r = await this.identity.resolveTokenId(tokenId, userId);
    } catch {
      throw new ServiceUnavailableError();
    }
    if ('error' in r) throw new UnauthorizedError();
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(key, { value: r.expires_at, at: Date.now() });
    return r.expires_at;
  }
}
