import type { Request } from 'express';
import { ctx, NotFoundError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { Group, groupStore } from '../groups/group-store';
import { splitFullPath } from '../namespaces/paths';
import { requireAdmin, requireUser, visibleOr404 } from '../policy';
import { effectiveLevel, Project } from '../projects/project';
import { projectStore } from '../projects/project-store';
import type { User } from '../users/user';
import { userStore } from '../users/user-store';
import { idOrPath, numericParam } from './helpers';

/**
 * The project of `/projects/:id…` (numeric, as the gateway forwards it, or a full path) with the
 * caller's levels; 404 `Project Not Found` when missing or invisible to the caller.
 */
export async function loadProject(ictx: IdentityContext, req: Request): Promise<Project> {
  const c = ctx(req);
  const ref = idOrPath(req);
  let project: Project | null = null;
  if (typeof ref === 'number') project = await projectStore.find(ictx.db, ref, c.user?.id ?? null);
  else {
    const { namespace, path } = splitFullPath(ref);
    if (namespace) project = await projectStore.find(ictx.db, { namespace, path }, c.user?.id ?? null);
  }
  return visibleOr404(project, effectiveLevel, c.user, 'Project');
}

/** The group of `/groups/:id…` with the caller's level; 404 `Group Not Found` when missing or invisible. */
export async function loadGroup(ictx: IdentityContext, req: Request): Promise<Group> {
  const c = ctx(req);
  const group = await groupStore.find(ictx.db, idOrPath(req), c.user?.id ?? null);
  if (!group) throw new NotFoundError('Group');
  return visibleOr404(group, (g) => g.accessLevel, c.user, 'Group');
}

/** The user of `/users/:id…` (numeric); 404 `User Not Found` when missing. */
export async function loadUser(ictx: IdentityContext, req: Request): Promise<User> {
  const user = await userStore.findById(ictx.db, numericParam(req, 'id'));
  if (!user) throw new NotFoundError('User');
  return user;
}

/** The user of `/users/:id…` for an administrator: 401/403 for anyone else before the lookup. */
export async function loadUserForAdmin(ictx: IdentityContext, req: Request): Promise<User> {
  requireAdmin(ctx(req).user);
  return loadUser(ictx, req);
}

/** The signed-in caller as a stored user: 401 for anonymous callers, 404 `User Not Found` when gone. */
export async function loadCurrentUser(ictx: IdentityContext, req: Request): Promise<User> {
  const user = await userStore.findById(ictx.db, requireUser(ctx(req).user).id);
  if (!user) throw new NotFoundError('User');
  return user;
}
