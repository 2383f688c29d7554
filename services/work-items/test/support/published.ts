import type { TestService } from '@anvil/testing';

/** One event as the outbox holds it. */
export interface Published {
  type: string;
  data: Record<string, any>;
}

/**
 * The events the service wrote to its outbox, oldest first: those whose `data` has every field of
 * `match` (compared as text), of types starting with `prefix`.
 */
export async function published(svc: TestService, prefix: string, match: Record<string, string | number | boolean> = {}): Promise<Published[]> {
  const q = svc.deps.db('outbox').select('type', 'data').where('type', 'like', `${prefix}%`).orderBy('id');
  for (const [k, v] of Object.entries(match)) q.whereRaw('data->>? = ?', [k, String(v)]);
  return q;
}
