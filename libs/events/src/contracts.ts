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
