import type { HookLogRow } from '../hooks/hook-log-store';
import { iso } from '../sql';

/** GitLab's `WebHookLog` entity. */
export function toWebHookLog(r: HookLogRow): Record<string, unknown> {
  return {
    id: Number(r.id),
    url: r.url,
    trigger: r.trigger,
    request_headers: r.request_headers,
    request_data: r.request_data,
    response_headers: r.response_headers,
    response_body: r.response_body,
    execution_duration: r.execution_duration,
    response_status: r.response_status,
    created_at: iso(r.created_at),
  };
}
