/**
 * Versioned event contracts (version 1 unless noted). Producers build `data` of these types;
 * consumers read them. A breaking change gets a new version number, never an edit in place.
 */

/** identity.user.created | identity.user.updated | identity.user.deleted */
export interface UserEventV1 {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
  admin: boolean;
}

/** identity.group.created | identity.group.updated | identity.group.deleted */
export interface GroupEventV1 {
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: 'private' | 'internal' | 'public';
  /** Ancestor group ids from the root down to and including this group. */
  traversal_ids: number[];
}

/** identity.project.created | identity.project.updated | identity.project.deleted */
export interface ProjectEventV1 {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  namespace_id: number;
  namespace_kind: 'user' | 'group';
  /** The owning group (null for a personal project). */
  group_id: number | null;
  /** Ancestor group ids from the root down to the owning group ([] for a personal project). */
  group_traversal_ids: number[];
  visibility: 'private' | 'internal' | 'public';
  archived: boolean;
  creator_id: number | null;
  web_url: string;
}

/** identity.membership.created | identity.membership.updated | identity.membership.deleted */
export interface MembershipEventV1 {
  source_type: 'Project' | 'Namespace';
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
}

/**
 * identity.token.revoked: a personal access token stopped working for good (revoked through the
 * API, or deleted with its user). Caches of token resolutions (the gateway's) drop it at once.
 */
export interface TokenEventV1 {
  /** The token's id (what registry JWTs carry as `token_id`). */
  id: number;
  user_id: number;
}

/** Identity's event types (routing keys). */
export const IdentityEvents = {
  userCreated: 'identity.user.created',
  userUpdated: 'identity.user.updated',
  userDeleted: 'identity.user.deleted',
  groupCreated: 'identity.group.created',
  groupUpdated: 'identity.group.updated',
  groupDeleted: 'identity.group.deleted',
  projectCreated: 'identity.project.created',
  projectUpdated: 'identity.project.updated',
  projectDeleted: 'identity.project.deleted',
  membershipCreated: 'identity.membership.created',
  membershipUpdated: 'identity.membership.updated',
  membershipDeleted: 'identity.membership.deleted',
  tokenRevoked: 'identity.token.revoked',
} as const;

/** registry.package.created | registry.package.deleted */
export interface PackageEventV1 {
  id: number;
  project_id: number;
  package_type: 'conan';
  name: string;
  version: string;
  package_username: string;
  package_channel: string;
}

export const RegistryEvents = {
  packageCreated: 'registry.package.created',
  packageDeleted: 'registry.package.deleted',
} as const;

/** work-items.issue.created | updated | closed | reopened | deleted */
export interface IssueEventV1 {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  confidential: boolean;
  issue_type: string;
  author_id: number;
  assignee_ids: number[];
  labels: string[];
  milestone_id: number | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** The user whose action produced the event. */
  actor_id: number | null;
  /** Attribute names that changed (updated events). */
  changes?: string[];
}

export const IssueEvents = {
  created: 'work-items.issue.created',
  updated: 'work-items.issue.updated',
  closed: 'work-items.issue.closed',
  reopened: 'work-items.issue.reopened',
  deleted: 'work-items.issue.deleted',
} as const;

/** work-items.award_emoji.awarded | work-items.award_emoji.removed */
export interface AwardEmojiEventV1 {
  id: number;
  /** The stored emoji name (aliases resolved: `+1` is `thumbsup`). */
  name: string;
  /** Who awarded it. */
  user_id: number;
  awardable_type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Note';
  awardable_id: number;
  project_id: number;
  created_at: string;
  updated_at: string;
  /** The user whose action produced the event (an administrator may remove another's award). */
  actor_id: number;
}

export const AwardEmojiEvents = {
  awarded: 'work-items.award_emoji.awarded',
  removed: 'work-items.award_emoji.removed',
} as const;

/** work-items.snippet.created | updated | deleted (project snippets) */
export interface SnippetEventV1 {
  id: number;
  project_id: number;
  author_id: number;
  title: string;
  description: string | null;
  visibility: 'private' | 'internal' | 'public';
  /** The paths of the snippet's files, in order (the first is `file_name`). */
  files: string[];
  created_at: string;
  updated_at: string;
  /** The user whose action produced the event. */
  actor_id: number | null;
  /** Attribute names that changed (updated events): `title`, `description`, `visibility`, `files`. */
  changes?: string[];
}

export const SnippetEvents = {
  created: 'work-items.snippet.created',
  updated: 'work-items.snippet.updated',
  deleted: 'work-items.snippet.deleted',
} as const;

/** work-items.note.created | updated | deleted: a comment or system note on an issue, merge request or epic. */
export interface NoteEventV1 {
  id: number;
  noteable_type: string;
  /** The noteable's database id. */
  noteable_id: number;
  /** The noteable's iid (issues and merge requests), else null. */
  noteable_iid: number | null;
  /** Set for project noteables; null for group ones (epics). */
  project_id: number | null;
  /** Set for group noteables (epics); null for project ones. */
  group_id: number | null;
  author_id: number;
  body: string;
  system: boolean;
  internal: boolean;
  created_at: string;
  updated_at: string;
  /** The user whose action produced the event. */
  actor_id: number;
}

export const NoteEvents = {
  created: 'work-items.note.created',
  updated: 'work-items.note.updated',
  deleted: 'work-items.note.deleted',
} as const;

/** work-items.label.created | updated | deleted: a project label (`project_id`) or a group label (`group_id`). */
export interface LabelEventV1 {
  id: number;
  title: string;
  color: string;
  description: string | null;
  priority: number | null;
  project_id: number | null;
  group_id: number | null;
  actor_id: number | null;
}

export const LabelEvents = {
  created: 'work-items.label.created',
  updated: 'work-items.label.updated',
  deleted: 'work-items.label.deleted',
} as const;

/** work-items.milestone.created | updated | deleted (dates `YYYY-MM-DD`). */
export interface MilestoneEventV1 {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  due_date: string | null;
  start_date: string | null;
  actor_id: number | null;
}

export const MilestoneEvents = {
  created: 'work-items.milestone.created',
  updated: 'work-items.milestone.updated',
  deleted: 'work-items.milestone.deleted',
} as const;

/** work-items.todo.created | updated (`state` moved to `done`). */
export interface TodoEventV1 {
  id: number;
  user_id: number;
  project_id: number | null;
  group_id: number | null;
  author_id: number;
  target_type: string;
  target_id: number;
  action: string;
  state: 'pending' | 'done';
}

export const TodoEvents = {
  created: 'work-items.todo.created',
  updated: 'work-items.todo.updated',
} as const;

/** work-items.subscription.updated: a user's explicit (un)subscription to a subscribable. */
export interface SubscriptionEventV1 {
  user_id: number;
  subscribable_type: string;
  subscribable_id: number;
  project_id: number | null;
  subscribed: boolean;
}

export const SubscriptionEvents = {
  updated: 'work-items.subscription.updated',
} as const;

/** work-items.merge_request.created | updated | closed | reopened | merged */
export interface MergeRequestEventV1 {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  source_branch: string;
  target_branch: string;
  author_id: number;
  milestone_id: number | null;
  draft: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  merged_at: string | null;
  actor_id: number | null;
}

export const MergeRequestEvents = {
  created: 'work-items.merge_request.created',
  updated: 'work-items.merge_request.updated',
  closed: 'work-items.merge_request.closed',
  reopened: 'work-items.merge_request.reopened',
  merged: 'work-items.merge_request.merged',
} as const;

/** work-items.epic.created */
export interface EpicEventV1 {
  id: number;
  iid: number;
  group_id: number;
  title: string;
  description: string | null;
  state: string;
  confidential: boolean;
  author_id: number;
  actor_id: number | null;
}

export const EpicEvents = {
  created: 'work-items.epic.created',
} as const;

/** identity.push_rule.created | updated | deleted: a group's push rule (stored only: Anvil receives no Git pushes). */
export interface PushRuleEventV1 {
  id: number;
  group_id: number;
  /** The user whose action produced the event. */
  actor_id: number;
}

export const PushRuleEvents = {
  created: 'identity.push_rule.created',
  updated: 'identity.push_rule.updated',
  deleted: 'identity.push_rule.deleted',
} as const;

/** identity.saml_group_link.created | deleted: a SAML group mapped to a role in a group. */
export interface SamlGroupLinkEventV1 {
  id: number;
  group_id: number;
  saml_group_name: string;
  access_level: number;
  member_role_id: number | null;
  provider: string | null;
  actor_id: number;
}

export const SamlGroupLinkEvents = {
  created: 'identity.saml_group_link.created',
  deleted: 'identity.saml_group_link.deleted',
} as const;

/** identity.ssh_certificate.created | deleted: a certificate authority trusted by a top-level group. */
export interface SshCertificateEventV1 {
  id: number;
  group_id: number;
  title: string;
  /** SHA-256 fingerprint of the CA key, base64 without padding or `SHA256:` prefix. */
  fingerprint: string;
  actor_id: number;
}

export const SshCertificateEvents = {
  created: 'identity.ssh_certificate.created',
  deleted: 'identity.ssh_certificate.deleted',
} as const;

/** identity.email.created | deleted: a user's secondary e-mail address. */
export interface EmailEventV1 {
  id: number;
  user_id: number;
  email: string;
  confirmed_at: string | null;
}

export const EmailEvents = {
  created: 'identity.email.created',
  deleted: 'identity.email.deleted',
} as const;

/** identity.ldap_sync.requested: a group's LDAP sync was queued (`POST /groups/:id/ldap_sync`); identity runs it. */
export interface LdapSyncRequestedV1 {
  group_id: number;
  /** The user who asked for it. */
  actor_id: number;
}

export const LdapEvents = {
  syncRequested: 'identity.ldap_sync.requested',
} as const;

/**
 * identity.group_link.created | identity.group_link.deleted: group `shared_group_id` was shared
 * with (or unshared from) group `shared_with_group_id`, whose members (and its ancestors' members)
 * reach the shared group, its subgroups and projects at the lower of their level and
 * `group_access` until `expires_at`. Access read models recompute from these.
 */
export interface GroupLinkEventV1 {
  shared_group_id: number;
  /** The shared group's ancestors from the root down to and including it. */
  shared_group_traversal_ids: number[];
  shared_with_group_id: number;
  group_access: number;
  expires_at: string | null;
}

export const GroupLinkEvents = {
  created: 'identity.group_link.created',
  deleted: 'identity.group_link.deleted',
} as const;

/** identity.settings.updated: the instance settings after a change (`PUT /application/settings`). */
export interface SettingsEventV1 {
  /** Every setting with its current value, by GitLab's name. */
  settings: Record<string, unknown>;
  /** The names that changed. */
  changes: string[];
  actor_id: number | null;
}

export const SettingsEvents = {
  updated: 'identity.settings.updated',
} as const;

/**
 * pipelines.repository.default_branch_changed: a project's default branch as its repository now
 * answers it (the branch of its first commit; `null` when its last branch was deleted). Identity
 * keeps the project's `default_branch` in step.
 */
export interface DefaultBranchChangedV1 {
  project_id: number;
  default_branch: string | null;
  previous: string | null;
  actor_id: number | null;
}

/**
 * pipelines.branch.pushed: a branch moved from `before` to `after` (40 zeros: created or deleted)
 * by a commit of the Repository Files API or the Branches API, like a Git push.
 */
export interface BranchPushedV1 {
  project_id: number;
  ref: string;
  before: string;
  after: string;
  /** The commit's author e-mail's user, i.e. the caller. */
  user_id: number | null;
}

export const RepositoryEvents = {
  defaultBranchChanged: 'pipelines.repository.default_branch_changed',
  branchPushed: 'pipelines.branch.pushed',
} as const;

/**
 * alerting.alert.created | updated | resolved: an alert of a project, as it is after the change.
 * `created` carries the project's incident settings at that moment (`create_issue`,
 * `incident_author_id`: the user who last saved them), so work-items can open the incident;
 * `resolved` carries `auto_close_incident` so it can close it.
 */
export interface AlertEventV1 {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  severity: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  event_count: number;
  fingerprint: string | null;
  monitoring_tool: string | null;
  service: string | null;
  hosts: string[];
  environment: string | null;
  incident_markdown: string | null;
  issue_iid: number | null;
  create_issue: boolean;
  auto_close_incident: boolean;
  incident_author_id: number | null;
}

export const AlertEvents = {
  created: 'alerting.alert.created',
  updated: 'alerting.alert.updated',
  resolved: 'alerting.alert.resolved',
} as const;

/** work-items.incident.created: an incident issue was opened for alert `alert_id` of the project. */
export interface IncidentEventV1 {
  alert_id: number;
  project_id: number;
  issue_id: number;
  issue_iid: number;
}

export const IncidentEvents = {
  created: 'work-items.incident.created',
} as const;

/** One job as a pipeline event lists it (GitLab's pipeline hook `builds[]`). */
export interface PipelineEventBuildV1 {
  id: number;
  stage: string;
  name: string;
  status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  failure_reason: string | null;
  when: string;
  manual: boolean;
  allow_failure: boolean;
  user_id: number | null;
  runner_id: number | null;
}

/**
 * pipelines.pipeline.created | status_changed | updated (metadata rename) | deleted: what GitLab's
 * pipeline hook payload is built from (`object_attributes`, `user`, `project`, `builds`).
 */
export interface PipelineEventV1 {
  id: number;
  iid: number;
  project_id: number;
  project_path: string | null;
  name: string | null;
  ref: string;
  tag: boolean;
  sha: string;
  before_sha: string;
  source: string;
  status: string;
  /** The status before this change (null on creation). */
  previous_status: string | null;
  /** GitLab's `detailed_status` text, e.g. `passed`, `passed with warnings`. */
  detailed_status: string;
  stages: string[];
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  coverage: string | null;
  user: { id: number; username: string; name: string } | null;
  variables: { key: string; value: string }[];
  builds: PipelineEventBuildV1[];
  parent_pipeline_id: number | null;
  actor_id: number | null;
}

export const PipelineEvents = {
  created: 'pipelines.pipeline.created',
  statusChanged: 'pipelines.pipeline.status_changed',
  updated: 'pipelines.pipeline.updated',
  deleted: 'pipelines.pipeline.deleted',
} as const;

/** pipelines.job.created | status_changed | retried | deleted: what GitLab's job hook payload is built from. */
export interface JobEventV1 extends PipelineEventBuildV1 {
  pipeline_id: number;
  project_id: number;
  project_path: string | null;
  ref: string;
  tag: boolean;
  sha: string;
  before_sha: string;
  previous_status: string | null;
  exit_code: number | null;
  retries_count: number;
  retried: boolean;
  tags: string[];
  pipeline_name: string | null;
  actor_id: number | null;
}

export const JobEvents = {
  created: 'pipelines.job.created',
  statusChanged: 'pipelines.job.status_changed',
  retried: 'pipelines.job.retried',
  deleted: 'pipelines.job.deleted',
} as const;

/**
 * transfer.export.requested: a user asked for an export of a project (`POST /projects/:id/export`).
 * Each data-owning service writes its relations under `prefix` (GitLab's export tree:
 * `tree/project.json`, `tree/project/<relation>.ndjson`) and reports `<service>.export.part.completed`.
 * A redelivery overwrites the same keys.
 */
export interface ExportRequestedV1 {
  /** The export job (one per request); every part event names it. */
  export_id: string;
  project_id: number;
  user_id: number;
  /** Overrides the project description in `tree/project.json` when set. */
  description: string | null;
  /** Storage prefix the parts are written under, ending in `/`. */
  prefix: string;
  /** Only these services write their part (a re-drive of a stalled job); absent: every service. */
  parts?: string[];
}

/** `<service>.export.part.completed`: one service's relations of an export are in storage. */
export interface ExportPartCompletedV1 {
  export_id: string;
  project_id: number;
  /** The part's name: the producing service. */
  part: string;
  /** Written files, relative to the export prefix (e.g. `tree/project/issues.ndjson`). */
  files: string[];
  /** Records written per relation (e.g. `{"issues": 3, "notes": 7}`). */
  counts: Record<string, number>;
}

/** `<service>.export.part.failed`: a service could not write its part of an export. */
export interface ExportPartFailedV1 {
  export_id: string;
  project_id: number;
  part: string;
  error: string;
}

export const TransferEvents = {
  exportRequested: 'transfer.export.requested',
  exportFinished: 'transfer.export.finished',
  exportFailed: 'transfer.export.failed',
  /** Every service's part reports. */
  partPatterns: ['*.export.part.completed', '*.export.part.failed'],
} as const;

/** Whether `part` is asked for by a request that may name only some parts (`ExportRequestedV1.parts`, `ImportUnpackedV1.parts`). */
export function partWanted(data: { parts?: string[] }, part: string): boolean {
  return !Array.isArray(data.parts) || data.parts.includes(part);
}

/** The routing keys of one service's export part reports. */
export function exportPartEvents(service: string): { completed: string; failed: string } {
  return { completed: `${service}.export.part.completed`, failed: `${service}.export.part.failed` };
}

/** transfer.export.finished | transfer.export.failed: an export job ended. */
export interface ExportEndedV1 {
  export_id: string;
  project_id: number;
  user_id: number;
  status: 'finished' | 'failed';
  error: string | null;
}

/** transfer.import.requested: an uploaded archive waits to be unpacked for the project an import fills. */
export interface ImportRequestedV1 {
  import_id: number;
  project_id: number;
  user_id: number;
  /** Storage key of the uploaded `.tar.gz`. */
  archive_key: string;
}

/**
 * transfer.import.unpacked: the archive's tree is in storage under `prefix`; each data-owning service
 * imports its relations into `project_id` and reports `<service>.import.part.completed`.
 */
export interface ImportUnpackedV1 {
  import_id: number;
  project_id: number;
  /** The importer: contributions of unmapped users are attributed to them. */
  user_id: number;
  prefix: string;
  /** Exported user id → this instance's user id (members matched by e-mail). */
  user_map: Record<string, number>;
  /** The import's `override_params`: they win over the archive's project attributes. */
  override_params?: Record<string, unknown>;
  /** Only these services import their part (a re-drive of a stalled import); absent: every service. */
  parts?: string[];
}

/** `<service>.import.part.completed`: one service imported its relations of an import. */
export interface ImportPartCompletedV1 {
  import_id: number;
  project_id: number;
  part: string;
  counts: Record<string, number>;
  /** Lines that could not be imported (at most 100 reported). */
  failures: { relation_name: string; line_number: number; exception_class: string; exception_message: string }[];
}

export const TransferImportEvents = {
  requested: 'transfer.import.requested',
  unpacked: 'transfer.import.unpacked',
  partPatterns: ['*.import.part.completed'],
} as const;

/** The routing key of one service's import part report. */
export function importPartCompleted(service: string): string {
  return `${service}.import.part.completed`;
}

/**
 * identity.project_group_link.created | identity.project_group_link.deleted: project `project_id`
 * was shared with (or unshared from) group `group_id`, whose members (and its ancestors' members)
 * reach the project at the lower of their level and `group_access` until `expires_at`.
 */
export interface ProjectGroupLinkEventV1 {
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

export const ProjectGroupLinkEvents = {
  created: 'identity.project_group_link.created',
  deleted: 'identity.project_group_link.deleted',
} as const;

/** `transfer.relation-import.requested`: one relation of an archive is to be re-imported into a project. */
export interface RelationImportRequestedV1 {
  relation_import_id: number;
  project_id: number;
  user_id: number;
  relation: string;
  archive_key: string;
}

/** `transfer.relation-import.unpacked`: the archive is unpacked under `prefix`; the owning service imports `relation`, skipping iids the project already has. */
export interface RelationImportUnpackedV1 {
  relation_import_id: number;
  project_id: number;
  user_id: number;
  relation: string;
  prefix: string;
  user_map: Record<string, number>;
}

/** `<service>.relation-import.part.completed`: a service re-imported its relation. */
export interface RelationImportPartCompletedV1 {
  relation_import_id: number;
  project_id: number;
  part: string;
  counts: Record<string, number>;
  /** Lines skipped because their iid already existed. */
  skipped: number;
  failures: ImportPartCompletedV1['failures'];
}

export const TransferRelationImportEvents = {
  requested: 'transfer.relation-import.requested',
  unpacked: 'transfer.relation-import.unpacked',
  partPatterns: ['*.relation-import.part.completed'],
} as const;

/** The routing key of one service's relation import report. */
export function relationImportPartCompleted(service: string): string {
  return `${service}.relation-import.part.completed`;
}

/** The kinds of transfer job a part works for. */
export type TransferJobKind = 'export' | 'import' | 'relation_import';

/**
 * `<service>.transfer.part.progressed`: a service is still working on its part of a transfer job (a
 * heartbeat, published every `TRANSFER_HEARTBEAT_SECONDS` while the part runs). project-transfer takes
 * it as the job's progress, so the stuck-job sweep re-drives a job only when its heartbeats stop.
 * Losing one is harmless: the next one, or the part's report, follows.
 */
export interface TransferPartProgressedV1 {
  kind: TransferJobKind;
  /** The export's job uuid, or the import's or relation import's id in decimal. */
  job_id: string;
  /** The producing service. */
  service: string;
  /** The part it works on (the service's part name). */
  part: string;
  /** When the part was last seen working (ISO 8601). */
  at: string;
}

export const TransferPartEvents = {
  /** Every service's heartbeats. */
  progressedPattern: '*.transfer.part.progressed',
} as const;

/** The routing key of one service's part heartbeats. */
export function transferPartProgressed(service: string): string {
  return `${service}.transfer.part.progressed`;
}
