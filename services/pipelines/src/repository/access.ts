/**
 * Who may read and write a project's repository, from the gateway's signed context (GitLab's
 * `download_code`, `push_code` and protected-branch rules).
 */
import { AccessLevel, Actor, projectAccess, RequestContext } from '@anvil/auth';
import { ForbiddenError, NotFoundError } from '@anvil/http';
import type { ProjectWeb } from '../entities/commit';

/** `download_code`: anyone on a public project, any signed-in user on an internal one, Reporter+ on a private one; else 403. */
export function requireReadCode(c: RequestContext): void {
  const project = c.project;
  if (!project) throw new NotFoundError('Project');
  if (project.visibility === 'public' || c.user?.admin) return;
  if (project.visibility === 'internal' && c.user) return;
  if (!c.user) throw new NotFoundError('Project');
  if (projectAccess(c) < AccessLevel.REPORTER) throw new ForbiddenError();
}

/** `push_code`: Developer and up; else 403. */
export function requirePushCode(c: RequestContext): Actor {
  if (!c.project) throw new NotFoundError('Project');
  if (!c.user || projectAccess(c) < AccessLevel.DEVELOPER) throw new ForbiddenError();
  return c.user;
}

/** Whether the caller may push to a protected branch (the default branch, fully protected): Maintainer and up. */
export function canPushProtected(c: RequestContext): boolean {
  return !!c.user && projectAccess(c) >= AccessLevel.MAINTAINER;
}

/** Whether the caller may push to unprotected branches: Developer and up. */
export function canPushCode(c: RequestContext): boolean {
  return !!c.user && projectAccess(c) >= AccessLevel.DEVELOPER;
}

/** The project's web location, for `web_url`s. */
export function projectWeb(c: RequestContext): ProjectWeb {
  return { base: c.base.replace(/\/$/, ''), pathWithNamespace: c.project?.path_with_namespace ?? '' };
}

/** The caller as a commit identity: their name and GitLab's private commit e-mail (`<id>-<username>@users.noreply.<host>`). */
export function committerOf(c: RequestContext, user: Actor): { name: string; email: string } {
  const host = new URL(c.base).hostname;
  return { name: user.name, email: `${user.id}-${user.username}@users.noreply.${host}` };
}
