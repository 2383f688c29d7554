import type { RequestContext } from '@anvil/auth';
import { AccessLevel } from '@anvil/auth';
import { ForbiddenError, NotFoundError } from '@anvil/http';
import type { ProjectClient, ProjectIdentity } from '../identity/project-client';

/** `authorize_admin_project`: the caller is a Maintainer or more on the project (admins count as Owner); else 403. */
export function requireAdminProject(c: RequestContext): { projectId: number; userId: number } {
  const project = c.project;
  if (!project) throw new NotFoundError('Project');
  const level = c.user?.admin ? AccessLevel.OWNER : project.access_level;
  if (!c.user || level < AccessLevel.MAINTAINER) throw new ForbiddenError();
  return { projectId: project.id, userId: c.user.id };
}

/** The project's identity from identity, or `404 Project Not Found`. */
export async function loadProject(projects: ProjectClient, id: number): Promise<ProjectIdentity> {
  const project = await projects.project(id);
  if (!project) throw new NotFoundError('Project');
  return project;
}
