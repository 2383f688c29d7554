import type { Visibility } from '@anvil/auth';
import type { Namespace } from '../namespaces/namespace';
import { ProjectSettings, withSettingDefaults } from './project-settings';

/** A row of `projects` joined with its namespace (`ns_*`), owner (`owner_*`) and the caller's levels. */
export interface ProjectRow {
  id: number;
  name: string;
  path: string;
  namespace_id: number;
  description: string | null;
  visibility: Visibility;
  archived: boolean;
  creator_id: number | null;
  default_branch: string | null;
  topics: string[];
  star_count: number;
  forks_count: number;
  settings: Partial<ProjectSettings>;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  ns_kind: 'user' | 'group';
  ns_name: string;
  ns_path: string;
  ns_full_path: string;
  ns_full_name: string;
  ns_parent_id: number | null;
  ns_traversal_ids: number[];
  ns_owner_id: number | null;
  ns_visibility: Visibility;
  owner_username: string | null;
  owner_name: string | null;
  owner_state: 'active' | 'blocked' | null;
  project_access: number;
  group_access: number;
  share_access?: number;
  /** The visible groups the project is shared with (JSON of the select), or null. */
  shared_with?: { group_id: number; group_name: string; group_full_path: string; group_access: number; expires_at: string | null }[] | null;
}

/** The namespace of a project, as far as projects need it. */
export type ProjectNamespace = Pick<Namespace, 'id' | 'kind' | 'name' | 'path' | 'fullPath' | 'fullName' | 'parentId' | 'traversalIds' | 'ownerId' | 'visibility'>;

/** A project with its namespace, the personal owner, and the caller's membership levels. */
export interface Project {
  id: number;
  name: string;
  path: string;
  pathWithNamespace: string;
  nameWithNamespace: string;
  description: string | null;
  visibility: Visibility;
  archived: boolean;
  creatorId: number | null;
  defaultBranch: string | null;
  topics: string[];
  starCount: number;
  forksCount: number;
  settings: ProjectSettings;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
  namespace: ProjectNamespace;
  /** The user owning the personal namespace (null for a group project). */
  owner: { id: number; username: string; name: string; state: 'active' | 'blocked' } | null;
  /** The caller's direct project level, highest group level and highest level through a share of the project (0 for none). */
  access: { project: number; group: number; share: number };
  /** The groups the project is shared with that the caller may read. */
  sharedWithGroups: SharedWithGroup[];
}

/** The owning group of a project (null for a personal project). */
export function groupIdOf(p: Project): number | null {
  return p.namespace.kind === 'group' ? p.namespace.id : null;
}

/** The caller's effective level: the highest of direct and inherited membership and of a share. */
export function effectiveLevel(p: Project): number {
  return Math.max(p.access.project, p.access.group, p.access.share);
}

/** One group a project is shared with (GitLab's `SharedGroupWithProject`). */
export interface SharedWithGroup {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccess: number;
  /** `YYYY-MM-DD` or null. */
  expiresAt: string | null;
}

/** Maps a joined project row to a Project. */
export function toProject(row: ProjectRow): Project {
  const nsFullName = row.ns_full_name ?? row.ns_name;
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    pathWithNamespace: `${row.ns_full_path}/${row.path}`,
    nameWithNamespace: `${nsFullName} / ${row.name}`,
    description: row.description,
    visibility: row.visibility,
    archived: row.archived,
    creatorId: row.creator_id,
    defaultBranch: row.default_branch,
    topics: row.topics ?? [],
    starCount: row.star_count,
    forksCount: row.forks_count,
    settings: withSettingDefaults(row.settings),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastActivityAt: row.last_activity_at,
    namespace: {
      id: row.namespace_id,
      kind: row.ns_kind,
      name: row.ns_name,
      path: row.ns_path,
      fullPath: row.ns_full_path,
      fullName: nsFullName,
      parentId: row.ns_parent_id,
      traversalIds: (row.ns_traversal_ids ?? []).map(Number),
      ownerId: row.ns_owner_id,
      visibility: row.ns_visibility,
    },
    owner:
      row.ns_kind === 'user' && row.ns_owner_id && row.owner_username
        ? { id: row.ns_owner_id, username: row.owner_username, name: row.owner_name ?? row.owner_username, state: row.owner_state ?? 'active' }
        : null,
    access: { project: Number(row.project_access ?? 0), group: Number(row.group_access ?? 0), share: Number(row.share_access ?? 0) },
    sharedWithGroups: (row.shared_with ?? []).map((l) => ({ groupId: l.group_id, groupName: l.group_name, groupFullPath: l.group_full_path, groupAccess: l.group_access, expiresAt: l.expires_at })),
  };
}
