import type { IssueEventV1, MembershipEventV1, NoteEventV1 } from '@anvil/events';
import type { Namespace } from '../namespaces/namespace';
import type { Project } from '../projects/project';
import { iso } from '../sql';
import type { User } from '../users/user';

/**
 * GitLab's web hook payloads (`lib/gitlab/hook_data/*`, `lib/gitlab/data_builder/*`), built from
 * the events that exist and identity's own users, groups and projects.
 */

const ROLE: Record<number, string> = { 5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };
const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const;
const base = (url: string) => url.replace(/\/$/, '');

/** `User#hook_attrs`: the e-mail only when public, else `[REDACTED]`. */
export function userHookAttrs(u: User | null, id: number | null): Record<string, unknown> {
  if (!u) return { id, name: null, username: null, avatar_url: null, email: '[REDACTED]' };
  return { id: u.id, name: u.name, username: u.username, avatar_url: null, email: u.profile.publicEmail || '[REDACTED]' };
}

/** `Project#hook_attrs`. */
export function projectHookAttrs(p: Project, publicUrl: string): Record<string, unknown> {
  const web = `${base(publicUrl)}/${p.pathWithNamespace}`;
  const ssh = `git@${new URL(publicUrl).hostname}:${p.pathWithNamespace}.git`;
  return {
    id: p.id, name: p.name, description: p.description, web_url: web, avatar_url: null, git_ssh_url: ssh, git_http_url: `${web}.git`,
    namespace: p.namespace.name, visibility_level: VISIBILITY_LEVEL[p.visibility], path_with_namespace: p.pathWithNamespace,
    default_branch: p.defaultBranch, ci_config_path: null, homepage: web, url: ssh, ssh_url: ssh, http_url: `${web}.git`,
  };
}

function repository(p: Project, publicUrl: string) {
  const attrs = projectHookAttrs(p, publicUrl);
  return { name: p.name, url: attrs.url, description: p.description, homepage: attrs.homepage };
}

const ISSUE_ACTION: Record<string, string> = { created: 'open', updated: 'update', closed: 'close', reopened: 'reopen' };

/** The Issue Hook payload (`Gitlab::DataBuilder::Issuable` + `HookData::IssueBuilder`). */
export function issuePayload(verb: string, e: IssueEventV1, actor: User | null, project: Project, assignees: User[], publicUrl: string): Record<string, unknown> {
  const labels = e.labels.map((title) => ({ title }));
  const attrs = {
    author_id: e.author_id, closed_at: e.closed_at, confidential: e.confidential, created_at: e.created_at, description: e.description,
    discussion_locked: null, due_date: e.due_date, id: e.id, iid: e.iid, last_edited_at: null, last_edited_by_id: null, milestone_id: e.milestone_id,
    moved_to_id: null, duplicated_to_id: null, project_id: e.project_id, relative_position: null, state_id: e.state === 'opened' ? 1 : 2,
    time_estimate: 0, title: e.title, updated_at: e.updated_at, updated_by_id: verb === 'updated' ? e.actor_id : null, type: 'Issue',
    url: `${base(publicUrl)}/${project.pathWithNamespace}/-/issues/${e.iid}`, total_time_spent: 0, time_change: 0, human_total_time_spent: null,
    human_time_change: null, human_time_estimate: null, assignee_ids: e.assignee_ids, assignee_id: e.assignee_ids[0] ?? null, labels, state: e.state,
    severity: 'unknown', customer_relations_contacts: [], action: ISSUE_ACTION[verb],
  };
  const current = attrs as Record<string, unknown>;
  const changes = Object.fromEntries((e.changes ?? []).filter((k) => k in current).map((k) => [k, { previous: null, current: current[k] }]));
  return {
    object_kind: 'issue', event_type: e.confidential ? 'confidential_issue' : 'issue', user: userHookAttrs(actor, e.actor_id), project: projectHookAttrs(project, publicUrl),
    object_attributes: attrs, labels, changes, repository: repository(project, publicUrl),
    ...(assignees.length ? { assignees: assignees.map((a) => userHookAttrs(a, a.id)) } : {}),
  };
}

const NOTEABLE_KEY: Record<string, string> = { Issue: 'issue', MergeRequest: 'merge_request', Snippet: 'snippet' };
const NOTEABLE_PATH: Record<string, string> = { Issue: 'issues', MergeRequest: 'merge_requests', Snippet: 'snippets' };

/** The Note Hook payload (`Gitlab::DataBuilder::Note`); the noteable as far as the event names it. */
export function notePayload(verb: string, e: NoteEventV1, actor: User | null, project: Project, publicUrl: string): Record<string, unknown> {
  const ref = e.noteable_iid ?? e.noteable_id;
  const url = `${base(publicUrl)}/${project.pathWithNamespace}/-/${NOTEABLE_PATH[e.noteable_type] ?? 'issues'}/${ref}#note_${e.id}`;
  const key = NOTEABLE_KEY[e.noteable_type];
  return {
    object_kind: 'note', event_type: e.internal ? 'confidential_note' : 'note', user: userHookAttrs(actor, e.actor_id), project_id: e.project_id,
    project: projectHookAttrs(project, publicUrl),
    object_attributes: {
      attachment: null, author_id: e.author_id, change_position: null, commit_id: null, created_at: e.created_at, discussion_id: null, id: e.id,
      line_code: null, note: e.body, noteable_id: e.noteable_id, noteable_type: e.noteable_type, original_position: null, position: null,
      project_id: e.project_id, resolved_at: null, resolved_by_id: null, resolved_by_push: null, st_diff: null, system: e.system, type: null,
      updated_at: e.updated_at, updated_by_id: null, description: e.body, internal: e.internal, url, action: verb === 'created' ? 'create' : 'update',
    },
    repository: repository(project, publicUrl),
    ...(key ? { [key]: { id: e.noteable_id, iid: e.noteable_iid, project_id: e.project_id } } : {}),
  };
}

const MEMBER_EVENT: Record<string, string> = { created: 'user_add_to_group', updated: 'user_update_for_group', deleted: 'user_remove_from_group' };

/** The Member Hook payload (`HookData::GroupMemberBuilder`). */
export function memberPayload(verb: string, e: MembershipEventV1, group: Namespace, user: User | null, occurredAt: string): Record<string, unknown> {
  return {
    created_at: occurredAt, updated_at: occurredAt, group_name: group.name, group_path: group.path, group_id: group.id,
    user_username: user?.username ?? null, user_name: user?.name ?? null, user_email: user?.profile.publicEmail || '[REDACTED]', user_id: e.user_id,
    group_access: ROLE[e.access_level] ?? null, expires_at: e.expires_at, event_name: MEMBER_EVENT[verb],
  };
}

/** The Subgroup Hook payload (`HookData::SubgroupBuilder`), sent to the parent and its ancestors. */
export function subgroupPayload(verb: string, g: { id: number; name: string; path: string; full_path: string }, parent: Namespace, times: { created: string; updated: string }): Record<string, unknown> {
  return {
    created_at: times.created, updated_at: times.updated, event_name: verb === 'created' ? 'subgroup_create' : 'subgroup_destroy',
    name: g.name, path: g.path, full_path: g.full_path, group_id: g.id, parent_group_id: parent.id, parent_name: parent.name,
    parent_path: parent.path, parent_full_path: parent.fullPath,
  };
}

/** The Project Hook payload (`HookData::ProjectBuilder`) for group hooks: `project_create` / `project_destroy`. */
export function projectPayload(verb: string, p: { id: number; name: string; path: string; path_with_namespace: string; namespace_id: number; visibility: string }, owners: User[], times: { created: string; updated: string }): Record<string, unknown> {
  return {
    event_name: verb === 'created' ? 'project_create' : 'project_destroy', created_at: times.created, updated_at: times.updated,
    name: p.name, path: p.path, path_with_namespace: p.path_with_namespace, project_id: p.id, project_namespace_id: p.namespace_id,
    owners: owners.map((o) => ({ name: o.name, email: o.profile.publicEmail || '[REDACTED]' })), project_visibility: p.visibility,
  };
}

/** Timestamps as GitLab's hook data prints them. */
export const hookTime = (d: Date | string | null) => iso(d) ?? new Date().toISOString();
