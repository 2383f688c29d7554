import { AccessLevel, type RequestContext } from '@anvil/auth';
import { ForbiddenError } from '@anvil/http';

/**
 * GitLab's `read_build` (and `read_build_trace`) on the request's project: Reporter and above on
 * any project, anyone who can see a public or internal one (public pipelines), administrators.
 * Otherwise `403 Forbidden`. The gateway has already answered 404 for a project the caller cannot see.
 */
export function authorizeReadBuild(c: RequestContext): void {
  const project = c.project;
  if (!project) throw new Error('route needs a project scope');
  if (c.user?.admin || project.access_level >= AccessLevel.REPORTER) return;
  if (project.visibility === 'public' || (project.visibility === 'internal' && c.user)) return;
  throw new ForbiddenError();
}
