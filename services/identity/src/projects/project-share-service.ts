import { Actor, canRead } from '@anvil/auth';
import { HttpError, NotFoundError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { groupStore } from '../groups/group-store';
import type { Project } from './project';
import { ProjectGroupLink, projectGroupLinkStore } from './project-group-link-store';

/** What `POST /projects/:id/share` asks for. */
export interface ProjectShareInput {
  groupId: number;
  groupAccess: number;
  expiresAt: string | null;
}

const conflict = (message: string) => new HttpError(409, { message });

/**
 * Shares `project` with a group (GitLab's `Projects::GroupLinks::CreateService`; the caller is a
 * Maintainer, checked by the route): 400 when the project's group locks sharing; 404 `Not Found`
 * when the group is missing or the caller cannot see it; 409 when it is the project's group or
 * one of its ancestors, or already shared. Writes `identity.project_group_link.created` in the
 * same transaction.
 */
export async function shareProject(ctx: IdentityContext, actor: Actor, project: Project, input: ProjectShareInput): Promise<ProjectGroupLink> {
  if (project.namespace.kind === 'group') {
    const own = await groupStore.find(ctx.db, project.namespace.id, null);
    if (own?.settings.share_with_group_lock) throw new HttpError(400, { message: 'The project sharing with group is disabled' });
  }
  const group = await groupStore.find(ctx.db, input.groupId, actor.id);
  if (!group || !canRead({ visibility: group.visibility, access_level: group.accessLevel, readable: group.readable }, actor)) throw new HttpError(404, { message: 'Not Found' });
  if (project.namespace.kind === 'group' && project.namespace.traversalIds.includes(group.id)) throw conflict('Project cannot be shared with the group it is in or one of its ancestors.');
  return ctx.db.transaction(async (trx) => {
    const link = await projectGroupLinkStore.insert(trx, { projectId: project.id, groupId: group.id, groupAccess: input.groupAccess, expiresAt: input.expiresAt });
    if (!link) throw conflict('Group already shared with this group');
    await publish.projectGroupLink(trx, 'created', link);
    return link;
  });
}

/** Removes the share of `project` with group `groupId`: 404 `Group Link Not Found` when there is none. Writes `identity.project_group_link.deleted`. */
export async function unshareProject(ctx: IdentityContext, project: Project, groupId: number): Promise<void> {
  const link = await projectGroupLinkStore.find(ctx.db, project.id, groupId);
  if (!link) throw new NotFoundError('Group Link');
  await ctx.db.transaction(async (trx) => {
    await projectGroupLinkStore.delete(trx, link.id);
    await publish.projectGroupLink(trx, 'deleted', link);
  });
}
