/**
 * Who may do what with pipelines and jobs (GitLab's ProjectPolicy / Ci::PipelinePolicy with
 * public builds on). The gateway has already answered 404 to callers who cannot see the project.
 * See ../shared/reference/pipelines.md §10.
 */
import { AccessLevel, projectAccess, type Actor, type RequestContext } from '@anvil/auth';
import { ForbiddenError, UnauthorizedError } from '@anvil/http';

/** `read_pipeline` + `read_build`: Reporter+ on a private project; anyone who sees a public or internal one. */
export function canReadPipelines(c: RequestContext): boolean {
  if (projectAccess(c) >= AccessLevel.REPORTER) return true;
  return c.project?.visibility === 'public' || (c.project?.visibility === 'internal' && !!c.user);
}

/** Throws 403 unless the caller may read pipelines and jobs. */
export function requireRead(c: RequestContext): void {
  if (!canReadPipelines(c)) throw new ForbiddenError();
}

/** The caller when at least `level` on the project (admins count as Owner); else 401 anonymous, 403 below. */
export function requireLevel(c: RequestContext, level: number): Actor {
  if (!c.user) throw new UnauthorizedError();
  if (projectAccess(c) < level) throw new ForbiddenError();
  return c.user;
}

/** `create_pipeline`, `update_pipeline`, `cancel_pipeline`, `read_pipeline_variable`, `update_build`: Developer+. */
export const requireDeveloper = (c: RequestContext): Actor => requireLevel(c, AccessLevel.DEVELOPER);

/** `destroy_pipeline`: Owner (and administrators). */
export const requireOwner = (c: RequestContext): Actor => requireLevel(c, AccessLevel.OWNER);

/** 401 for a write without credentials (GitLab's `authenticate_non_get!`). */
export function requireUser(c: RequestContext): Actor {
  if (!c.user) throw new UnauthorizedError();
  return c.user;
}
