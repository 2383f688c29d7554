import type { Visibility } from '@anvil/auth';

/** Group settings kept in `namespaces.settings` (jsonb), with GitLab's defaults. */
export interface GroupSettings {
  share_with_group_lock: boolean;
  require_two_factor_authentication: boolean;
  two_factor_grace_period: number;
  project_creation_level: 'noone' | 'owner' | 'maintainer' | 'developer' | 'administrator';
  subgroup_creation_level: 'owner' | 'maintainer';
  auto_devops_enabled: boolean | null;
  emails_enabled: boolean;
  mentions_disabled: boolean | null;
  lfs_enabled: boolean;
  request_access_enabled: boolean;
  default_branch: string | null;
  default_branch_protection: number;
}

/** Defaults of group settings (project and subgroup creation need Maintainer). */
export const GROUP_SETTING_DEFAULTS: GroupSettings = {
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  project_creation_level: 'maintainer',
  subgroup_creation_level: 'maintainer',
  auto_devops_enabled: null,
  emails_enabled: true,
  mentions_disabled: null,
  lfs_enabled: true,
  request_access_enabled: true,
  default_branch: null,
  default_branch_protection: 2,
};

/** A row of `namespaces`, plus `full_name` (names from the root, joined by ` / `) when selected. */
export interface NamespaceRow {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  traversal_ids: number[];
  owner_id: number | null;
  visibility: Visibility;
  description: string;
  settings: Partial<GroupSettings>;
  created_at: Date;
  updated_at: Date;
  full_name?: string;
}

/** A user's personal namespace or a group (a group's id is its namespace id). */
export interface Namespace {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  fullPath: string;
  fullName: string;
  parentId: number | null;
  traversalIds: number[];
  ownerId: number | null;
  visibility: Visibility;
  description: string;
  settings: GroupSettings;
  createdAt: Date;
  updatedAt: Date;
}

/** Maps a `namespaces` row to a Namespace (settings merged over the defaults). */
export function toNamespace(row: NamespaceRow): Namespace {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    path: row.path,
    fullPath: row.full_path,
    fullName: row.full_name ?? row.name,
    parentId: row.parent_id,
    traversalIds: (row.traversal_ids ?? []).map(Number),
    ownerId: row.owner_id,
    visibility: row.visibility,
    description: row.description,
    settings: { ...GROUP_SETTING_DEFAULTS, ...(row.settings ?? {}) },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const RANK: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

/** Numeric rank of a visibility (private < internal < public). */
export function visibilityRank(v: Visibility): number {
  return RANK[v];
}
