import type { Knex } from 'knex';
import type { Db } from '../sql';

/** A row of `web_hook_logs`: one delivery attempt and its outcome. */
export interface HookLogRow {
  id: number;
  web_hook_id: number;
  trigger: string;
  url: string;
  url_hash: string;
  request_headers: Record<string, string>;
  request_data: unknown;
  response_headers: Record<string, string>;
  response_body: string | null;
  response_status: string;
  execution_duration: number;
  internal_error_message: string | null;
  created_at: Date;
}

/** `WebHookLog::MAX_RECENT_DAYS`: the API lists this many days of deliveries. */
export const RECENT_DAYS = 7;
/** How long delivery logs are kept (GitLab's daily partitions are kept 14 days). */
export const RETAIN_DAYS = 14;

/** Status filters of the events API: HTTP codes or the named classes. */
export type StatusFilter = (number | 'successful' | 'client_failure' | 'server_failure')[];

function byStatus(q: Knex.QueryBuilder, statuses: StatusFilter | undefined): Knex.QueryBuilder {
  if (!statuses?.length) return q;
  return q.where((w) => {
    for (const s of statuses) {
      if (s === 'successful') w.orWhereRaw(`response_status ~ '^2[0-9][0-9]$'`);
      else if (s === 'client_failure') w.orWhereRaw(`response_status ~ '^4[0-9][0-9]$'`);
      else if (s === 'server_failure') w.orWhereRaw(`response_status ~ '^5[0-9][0-9]$' OR response_status = 'internal error'`);
      else w.orWhere('response_status', String(s));
    }
  });
}

/** Reads and writes `web_hook_logs`. */
export const hookLogStore = {
  /** Recent deliveries of a hook, newest first, optionally by status (a query, for pagination). */
  recentQuery(db: Db, hookId: number, statuses?: StatusFilter): Knex.QueryBuilder {
    const q = db('web_hook_logs').where({ web_hook_id: hookId }).whereRaw(`created_at >= now() - interval '${RECENT_DAYS} days'`);
    return byStatus(q, statuses).orderBy('created_at', 'desc').orderBy('id', 'desc');
  },

  /** One log entry of a hook, or null. */
  async find(db: Db, hookId: number, id: number): Promise<HookLogRow | null> {
    return ((await db('web_hook_logs').where({ web_hook_id: hookId, id }).first()) as HookLogRow | undefined) ?? null;
  },

  /** Deletes logs older than the retention period. */
  async prune(db: Db): Promise<number> {
    return db('web_hook_logs').whereRaw(`created_at < now() - interval '${RETAIN_DAYS} days'`).delete();
  },

  /** Records one delivery attempt. */
  async insert(db: Db, row: Omit<HookLogRow, 'id' | 'created_at'>): Promise<void> {
    await db('web_hook_logs').insert({ ...row, request_headers: JSON.stringify(row.request_headers), request_data: JSON.stringify(row.request_data), response_headers: JSON.stringify(row.response_headers) });
  },
};
