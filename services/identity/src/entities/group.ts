import { iso } from '../sql';
import type { Group } from '../groups/group-store';
import type { InvitedGroup } from '../groups/group-link-store';
import { namespaceWebUrl } from './namespace';

const STATISTICS = { storage_size: 0, repository_size: 0, wiki_size: 0, lfs_objects_size: 0, job_artifacts_size: 0, pipeline_artifacts_size: 0, packages_size: 0, snippets_size: 0, uploads_size: 0 };

/**
 * `Group`: the group entity of lists and of create/update answers; `statistics` (storage sizes,
 * all 0: groups here hold no repositories, packages or uploads) when asked by an administrator.
 */
export function toGroupEntity(g: Group, base: string, opts: { statistics?: boolean } = {}) {
  const s = g.settings;
  return {
    id: g.id,
    web_url: namespaceWebUrl({ kind: 'group', fullPath: g.fullPath }, base),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    share_with_group_lock: s.share_with_group_lock,
    require_two_factor_authentication: s.require_two_factor_authentication,
    two_factor_grace_period: s.two_factor_grace_period,
    project_creation_level: s.project_creation_level,
    auto_devops_enabled: s.auto_devops_enabled,
    subgroup_creation_level: s.subgroup_creation_level,
    emails_disabled: !s.emails_enabled,
    emails_enabled: s.emails_enabled,
    show_diff_preview_in_email: true,
    mentions_disabled: s.mentions_disabled,
    lfs_enabled: s.lfs_enabled,
    archived: false,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
    default_branch: s.default_branch,
    default_branch_protection: s.default_branch_protection,
    default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: false },
    avatar_url: null,
    request_access_enabled: s.request_access_enabled,
    full_name: g.fullName,
    full_path: g.fullPath,
    created_at: iso(g.createdAt),
    parent_id: g.parentId,
    organization_id: 1,
    shared_runners_setting: 'enabled',
    max_artifacts_size: null,
    marked_for_deletion_on: null,
    ...(opts.statistics ? { statistics: { ...STATISTICS } } : {}),
  };
}

/** `SharedGroupWithGroup`: one entry of `shared_with_groups`. */
export function toSharedWithGroup(l: InvitedGroup) {
  return { group_id: l.group.id, group_name: l.group.name, group_full_path: l.group.fullPath, group_access_level: l.groupAccess, expires_at: l.expiresAt };
}

/**
 * `GroupDetail`: `Group` plus the groups it is shared with (those the caller may read) and,
 * unless `with_projects=false`, its projects and the projects shared with it.
 */
export function toGroupDetail(g: Group, base: string, projects: unknown[] | null, sharedWith: InvitedGroup[] = [], sharedProjects: unknown[] = []) {
  return {
    ...toGroupEntity(g, base),
    shared_with_groups: sharedWith.map(toSharedWithGroup),
    ...(g.parentId === null ? { prevent_sharing_groups_outside_hierarchy: false } : {}),
    ...(projects ? { projects, shared_projects: sharedProjects } : {}),
  };
}
