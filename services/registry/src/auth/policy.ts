import { AccessLevel, type Actor, canRead, type ProjectScope, type RequestContext } from '@anvil/auth';
import { HttpError, NotFoundError, ForbiddenError } from '@anvil/http';

/** Who is calling, as the registry counts credentials: Basic without a token is nobody. */
export interface Caller {
  user: Actor | null;
  /** The personal access token behind the credential (PAT, Basic username:PAT, or registry JWT). */
  tokenId?: number;
  scopes: string[];
}

/**
 * The caller of a request. GitLab's Conan routes accept a registry JWT and Basic with a token as the
 * password; Basic with anything else authenticates nobody. The gateway reads nothing else on these
 * routes (`PRIVATE-TOKEN` counts as none), so only tests sign a context that says `pat` here.
 */
export function callerOf(ctx: RequestContext): Caller {
  if (!ctx.user || ctx.auth === 'none') return { user: null, scopes: [] };
  if (ctx.auth === 'basic' && ctx.token_id === undefined) return { user: null, scopes: [] };
  return { user: ctx.user, tokenId: ctx.token_id, scopes: ctx.scopes };
}

/** The API's scope rule: `api` for everything, `read_api` for GET and HEAD. */
export function scopeAllows(scopes: string[], method: string): boolean {
  if (scopes.includes('api')) return true;
  return (method === 'GET' || method === 'HEAD') && scopes.includes('read_api');
}

/** 403 insufficient_scope, in the shape of GitLab's API guard. */
export function insufficientScope(method: string): HttpError {
  const scope = method === 'GET' || method === 'HEAD' ? 'api read_api' : 'api';
  return new HttpError(403, { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope });
}

/** The caller's effective level on the project: admins count as Owner, nobody as none. */
export function accessLevel(caller: Caller, project: ProjectScope): number {
  if (!caller.user) return AccessLevel.NONE;
  if (caller.user.admin) return AccessLevel.OWNER;
  return project.access_level;
}

/** Whether the caller may read the project's packages (anonymous on public, any reader otherwise). */
export function canReadPackages(caller: Caller, project: ProjectScope): boolean {
  return canRead({ visibility: project.visibility, access_level: accessLevel(caller, project) }, caller.user);
}

/** Read access or 404 Project Not Found (a project the caller cannot see does not exist for them). */
export function authorizeRead(caller: Caller, project: ProjectScope): void {
  if (!canReadPackages(caller, project)) throw new NotFoundError('Project');
}

/** Upload needs Developer: 404 when the project is invisible, else 403. */
export function authorizeUpload(caller: Caller, project: ProjectScope): void {
  authorizeRead(caller, project);
  if (accessLevel(caller, project) < AccessLevel.DEVELOPER) throw new ForbiddenError();
}

/** Delete needs Maintainer: 404 when the project is invisible, else 403. */
export function authorizeDestroy(caller: Caller, project: ProjectScope): void {
  authorizeRead(caller, project);
  if (accessLevel(caller, project) < AccessLevel.MAINTAINER) throw new ForbiddenError();
}
