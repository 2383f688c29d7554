import type { Knex } from 'knex';
import { Actor, groupAccess, projectAccess, RequestContext } from '@anvil/auth';
import { ForbiddenError, UnauthorizedError } from '@anvil/http';
import { groupById, projectsByIds } from '../read-model/store';
import { ISSUE_ADMIN_LEVEL } from './viewer';

/** The two parents of labels and milestones, as their URL prefixes name them. */
export type OwnerKind = 'projects' | 'groups';

/** Both kinds, in the order their routes are mounted. */
export const OWNER_KINDS: readonly OwnerKind[] = ['projects', 'groups'];

/** A project-owned (`projectId`) or group-owned (`groupId`) thing: exactly one is set. */
export interface Owner {
  projectId: number | null;
  groupId: number | null;
}

/** The owner a `/projects/:id/...` or `/groups/:id/...` request is about. */
export function ownerOf(kind: OwnerKind, c: RequestContext): Owner {
  return kind === 'projects' ? { projectId: c.project?.id as number, groupId: null } : { projectId: null, groupId: c.group?.id as number };
}

/** The caller, when at least Planner on the owner (admins count as Owner); else 401 anonymous, 403 below. */
export function requireIssueAdmin(kind: OwnerKind, c: RequestContext): Actor {
  if (!c.user) throw new UnauthorizedError();
  if ((kind === 'projects' ? projectAccess(c) : groupAccess(c)) < ISSUE_ADMIN_LEVEL) throw new ForbiddenError();
  return c.user;
}

/**
 * The ancestor group ids of the request's group (itself included) or project (root first), from
 * the read model; before identity's events have arrived, the scope's own group (or none).
 */
export async function ancestorGroupIds(db: Knex, c: RequestContext): Promise<number[]> {
  if (c.group) return (await groupById(db, c.group.id))?.traversal_ids ?? [c.group.id];
  const projectId = c.project?.id as number;
  const traversal = (await projectsByIds(db, [projectId])).get(projectId)?.group_traversal_ids;
  if (traversal?.length) return traversal;
  return c.project?.group_id ? [c.project.group_id] : [];
}
