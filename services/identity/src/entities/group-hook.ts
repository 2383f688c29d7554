import { iso } from '../sql';
import { alertStatus, EVENT_FLAGS, Hook } from '../hooks/hook';

const keysOnly = (m: Record<string, string>) => Object.keys(m).map((key) => ({ key }));

/** GitLab's `GroupHook` entity: never the token; URL variables and custom headers as their keys only. */
export function toGroupHook(h: Hook): Record<string, unknown> {
  const e = h.events;
  return {
    id: h.id,
    url: h.url,
    name: h.name,
    description: h.description,
    created_at: iso(h.createdAt),
    push_events: e.push_events,
    tag_push_events: e.tag_push_events,
    merge_requests_events: e.merge_requests_events,
    repository_update_events: e.repository_update_events,
    enable_ssl_verification: h.enableSslVerification,
    alert_status: alertStatus(h),
    disabled_until: iso(h.disabledUntil),
    url_variables: keysOnly(h.urlVariables),
    push_events_branch_filter: h.pushEventsBranchFilter,
    branch_filter_strategy: h.branchFilterStrategy,
    custom_webhook_template: h.customWebhookTemplate,
    custom_headers: keysOnly(h.customHeaders),
    group_id: h.groupId,
    ...Object.fromEntries(EVENT_FLAGS.filter((f) => !['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'].includes(f)).map((f) => [f, e[f]])),
  };
}
