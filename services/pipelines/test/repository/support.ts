import { Actor, ProjectScope, Visibility } from '@anvil/auth';
import { actor, projectScope, SignedClient, startService, TestService } from '@anvil/testing';
import { pipelinesService } from '../../src';

/** Access levels of the test cast. */
export const LEVELS = { owner: 50, maintainer: 40, developer: 30, reporter: 20, guest: 10, outsider: 0 } as const;
export type Role = keyof typeof LEVELS | 'admin' | 'anonymous';

let nextProject = 5000;

/** A running pipelines service and a cast of users, each signed in on projects of any visibility. */
export interface RepoWorld {
  svc: TestService;
  users: Record<Exclude<Role, 'anonymous'>, Actor>;
  /** A fresh project id (nothing committed yet). */
  project(visibility?: Visibility): ProjectScope;
  /** Requests as `role` on `project`. */
  on(project: ProjectScope, role: Role): SignedClient;
  files(project: ProjectScope, path: string): string;
  branches(project: ProjectScope, name?: string): string;
  /** Commits a file as the owner (201 expected). */
  seed(project: ProjectScope, path: string, content: string, branch?: string, extra?: Record<string, unknown>): Promise<void>;
}

/** Starts the service; call `svc.stop()` after. */
export async function repoWorld(): Promise<RepoWorld> {
  const svc = await startService(pipelinesService);
  const users = {
    owner: actor('owner-user', { name: 'Owner User' }),
    maintainer: actor('maintainer-user'),
    developer: actor('developer-user'),
    reporter: actor('reporter-user'),
    guest: actor('guest-user'),
    outsider: actor('outsider-user'),
    admin: actor('admin-user', { admin: true }),
  };
  const on = (project: ProjectScope, role: Role) => {
    if (role === 'anonymous') return svc.as({ user: null, project: { ...project, access_level: 0 } });
    const level = role === 'admin' ? 0 : LEVELS[role];
    return svc.as({ user: users[role], project: { ...project, access_level: level } });
  };
  const files = (project: ProjectScope, path: string) => `/api/v4/projects/${project.id}/repository/files/${encodeURIComponent(path)}`;
  return {
    svc,
    users,
    project: (visibility: Visibility = 'private') => projectScope(nextProject++, { visibility, path_with_namespace: `group/project-${nextProject}` }),
    on,
    files,
    branches: (project, name) => `/api/v4/projects/${project.id}/repository/branches${name === undefined ? '' : `/${encodeURIComponent(name)}`}`,
    async seed(project, path, content, branch = 'main', extra = {}) {
      await on(project, 'owner').post(files(project, path)).send({ branch, content, commit_message: `Add ${path}`, ...extra }).expect(201);
    },
  };
}
