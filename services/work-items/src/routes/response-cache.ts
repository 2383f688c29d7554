import type { Request, Response } from 'express';
import { projectAccess } from '@anvil/auth';
import { ctx } from '@anvil/http';
import { GenerationCache } from '../db/freshness';

/** A rendered JSON response: status, body text and the headers (pagination) that go with it. */
export interface Rendered {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * Rendered GET responses, per caller (user, admin flag, project level, public base) and URL, kept
 * for the data generation (see `freshness.ts`): any write in this process or identity event
 * invalidates them; other replicas' writes show within the TTL. Bodies over 512 KB are not kept.
 */
export class ResponseCache {
  private readonly cache: GenerationCache<Rendered>;

  constructor(ttlMs: number) {
    this.cache = new GenerationCache<Rendered>(ttlMs, 1000);
  }

  /** Sends the cached response for this request, or renders, sends and (when small) keeps it. */
  async send(req: Request, res: Response, render: () => Promise<Rendered>): Promise<void> {
    const c = ctx(req);
    const key = `${c.user?.id ?? 0}|${c.user?.admin ? 1 : 0}|${c.project ? projectAccess(c) : ''}|${c.base}|${req.originalUrl}`;
    let fresh: Rendered | undefined;
    const out = await this.cache.get(key, async () => (fresh = await render()), (r) => r.body.length <= 512 * 1024);
    for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
    // a Buffer, so express does not append `; charset=utf-8` (python-gitlab compares the type exactly)
    res.status(out.status).setHeader('Content-Type', 'application/json');
    res.send(Buffer.from(fresh ? fresh.body : out.body, 'utf8'));
  }
}
