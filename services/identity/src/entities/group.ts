import { iso } from '../sql';
import type { Group } from '../groups/group-store';
import { namespaceWebUrl } from './namespace';

/** `Group`: the group entity of lists and of create/update answers. */
export function toGroupEntity(g: Group, base: string) {
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
  };
}

/** `GroupDetail`: `Group` plus sharing info and (unless `with_projects=false`) its projects. */
export function toGroupDetail(g: Group, base: string, projects: unknown[] | null) {
  return {
    ...toGroupEntity(g, base),
    shared_with_groups: [] as unknown[],
    ...(g.parentId === null ? { prevent_sharing_groups_outside_hierarchy: false } : {}),
    ...(projects ? { projects, shared_projects: [] as unknown[] } : {}),
  };
}
