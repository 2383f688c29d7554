/** The event switches of a group hook, as GitLab's `web_hooks` columns and API params. */
export const EVENT_FLAGS = [
  'push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events', 'issues_events', 'confidential_issues_events',
  'note_events', 'confidential_note_events', 'pipeline_events', 'wiki_page_events', 'job_events', 'deployment_events',
  'feature_flag_events', 'releases_events', 'milestone_events', 'subgroup_events', 'emoji_events', 'resource_access_token_events',
  'member_events', 'vulnerability_events', 'project_events',
] as const;

/** One event switch column. */
export type EventFlag = (typeof EVENT_FLAGS)[number];

/** A row of `web_hooks`. */
export interface HookRow extends Record<EventFlag, boolean | null> {
  id: number;
  group_id: number;
  url: string;
  token: string | null;
  name: string | null;
  description: string | null;
  enable_ssl_verification: boolean;
  push_events_branch_filter: string | null;
  branch_filter_strategy: 'wildcard' | 'regex' | 'all_branches';
  custom_webhook_template: string | null;
  url_variables: Record<string, string>;
  custom_headers: Record<string, string>;
  recent_failures: number;
  disabled_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A group hook (the row in camelCase; event switches keep GitLab's names). */
export interface Hook {
  id: number;
  groupId: number;
  url: string;
  token: string | null;
  name: string | null;
  description: string | null;
  events: Record<EventFlag, boolean | null>;
  enableSslVerification: boolean;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: 'wildcard' | 'regex' | 'all_branches';
  customWebhookTemplate: string | null;
  urlVariables: Record<string, string>;
  customHeaders: Record<string, string>;
  recentFailures: number;
  disabledUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Maps a `web_hooks` row to a Hook. */
export function toHook(r: HookRow): Hook {
  return {
    id: r.id,
    groupId: r.group_id,
    url: r.url,
    token: r.token,
    name: r.name,
    description: r.description,
    events: Object.fromEntries(EVENT_FLAGS.map((f) => [f, r[f]])) as Record<EventFlag, boolean | null>,
    enableSslVerification: r.enable_ssl_verification,
    pushEventsBranchFilter: r.push_events_branch_filter,
    branchFilterStrategy: r.branch_filter_strategy,
    customWebhookTemplate: r.custom_webhook_template,
    urlVariables: r.url_variables ?? {},
    customHeaders: r.custom_headers ?? {},
    recentFailures: r.recent_failures,
    disabledUntil: r.disabled_until,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `WebHooks::AutoDisabling` thresholds (GitLab 17.11+): grace failures, permanent disable, backoff cap. */
export const AUTO_DISABLING = { temporaryAfter: 3, permanentAfter: 39, maxFailures: 40, maxBackoffMs: 24 * 3600_000, baseBackoffMs: 60_000 } as const;

/** `alert_status`: `executable`, `temporarily_disabled` or `disabled`. */
export function alertStatus(h: Pick<Hook, 'recentFailures' | 'disabledUntil'>, now = new Date()): 'executable' | 'temporarily_disabled' | 'disabled' {
  if (h.recentFailures > AUTO_DISABLING.permanentAfter) return 'disabled';
  if (h.recentFailures > AUTO_DISABLING.temporaryAfter && h.disabledUntil && h.disabledUntil >= now) return 'temporarily_disabled';
  return 'executable';
}

/**
 * The state after one failed delivery (`backoff!`): the 4th and later failures disable the hook for
 * 1 min × 2^(failures before − 3), clamped to [1 min, 1 day]; the 40th disables it for good.
 */
export function afterFailure(h: Pick<Hook, 'recentFailures'>, now = new Date()): { recentFailures: number; disabledUntil: Date | null } {
  const before = h.recentFailures;
  const recentFailures = Math.min(before + 1, AUTO_DISABLING.maxFailures);
  if (recentFailures <= AUTO_DISABLING.temporaryAfter || recentFailures > AUTO_DISABLING.permanentAfter) return { recentFailures, disabledUntil: null };
  const ms = Math.min(Math.max(AUTO_DISABLING.baseBackoffMs * 2 ** (before - AUTO_DISABLING.temporaryAfter), AUTO_DISABLING.baseBackoffMs), AUTO_DISABLING.maxBackoffMs);
  return { recentFailures, disabledUntil: new Date(now.getTime() + ms) };
}

/** `{var}` placeholders of a hook URL filled from its URL variables; null when one is missing. */
export function interpolateUrl(url: string, variables: Record<string, string>): string | null {
  let missing = false;
  const out = url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k: string) => {
    if (variables[k] === undefined) missing = true;
    return encodeURIComponent(variables[k] ?? '');
  });
  return missing ? null : out;
}
