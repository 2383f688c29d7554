import { AccessLevel, Actor, projectAccess, RequestContext } from '@anvil/auth';
import { ForbiddenError, UnauthorizedError } from '@anvil/http';

/** The project a `/projects/:id/alert_management/...` request is about (the gateway resolved and checked it). */
export interface ProjectRef {
  id: number;
  pathWithNamespace: string;
  /** The public base URL without its trailing slash. */
  base: string;
}

/**
 * The caller and project of a management request, when the caller reaches `min` on the project:
 * anonymous → 401, a lower level → 403 (the gateway already answered 404 for unreadable projects).
 */
export function requireLevel(c: RequestContext, min: number): { user: Actor; project: ProjectRef } {
  if (!c.user) throw new UnauthorizedError();
  if (!c.project) throw new Error('route needs a project scope');
  if (projectAccess(c) < min) throw new ForbiddenError();
  return { user: c.user, project: { id: c.project.id, pathWithNamespace: c.project.path_with_namespace, base: c.base.replace(/\/$/, '') } };
}

/** Alerts are read from Reporter up; integrations and settings are managed from Maintainer up (GitLab's `read_alert_management_alert`, `admin_operations`). */
export const READ_ALERTS = AccessLevel.REPORTER;
export const ADMIN_ALERTING = AccessLevel.MAINTAINER;
