import type { SharedWithGroup } from '../projects/project';
import type { ProjectGroupLink } from '../projects/project-group-link-store';

/** GitLab's `ProjectGroupLink` entity (what `POST /projects/:id/share` answers). */
export function toProjectGroupLink(l: ProjectGroupLink) {
  return { id: l.id, project_id: l.projectId, group_id: l.groupId, group_access: l.groupAccess, expires_at: l.expiresAt };
}

/** `SharedGroupWithProject`: one entry of a project's `shared_with_groups`. */
export function toSharedGroupWithProject(s: SharedWithGroup) {
  return { group_id: s.groupId, group_name: s.groupName, group_full_path: s.groupFullPath, group_access_level: s.groupAccess, expires_at: s.expiresAt };
}
