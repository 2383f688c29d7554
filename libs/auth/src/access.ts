import { AccessLevel, Actor, GroupScope, ProjectScope, RequestContext } from './context';

/**
 * Whether `user` may see a project or group of this visibility at this membership level, or a
 * group that identity marked `readable` for a signed-in caller (a project inside it is visible).
 */
export function canRead(scope: Pick<ProjectScope | GroupScope, 'visibility' | 'access_level'> & Pick<GroupScope, 'readable'>, user: Actor | null): boolean {
  if (user?.admin) return true;
  if (scope.visibility === 'public') return true;
  if (scope.visibility === 'internal' && user) return true;
  return !!user && (scope.access_level >= AccessLevel.GUEST || scope.readable === true);
}

/** The caller's effective level on the context's project: admins count as Owner. */
export function projectAccess(ctx: RequestContext): number {
  if (ctx.user?.admin) return AccessLevel.OWNER;
  return ctx.project?.access_level ?? AccessLevel.NONE;
}

/** The caller's effective level on the context's group: admins count as Owner. */
export function groupAccess(ctx: RequestContext): number {
  if (ctx.user?.admin) return AccessLevel.OWNER;
  return ctx.group?.access_level ?? AccessLevel.NONE;
}

/** Scopes that allow any method, and scopes that allow reads (GET/HEAD) only, on the general API. */
export const WRITE_SCOPES = ['api'];
export const READ_SCOPES = ['api', 'read_api'];
