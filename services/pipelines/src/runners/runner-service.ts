import type { Knex } from 'knex';
import { AccessLevel, type Actor, type IdentityClient } from '@anvil/auth';
import { BadRequestError, ForbiddenError } from '@anvil/http';
import { runnerStore } from './runner-store';
import { newRunnerToken } from './tokens';
import type { NewRunner, Runner } from './types';

/** What creating a runner needs besides the database. */
export interface RunnerServiceDeps {
  db: Knex;
  identity: Pick<IdentityClient, 'resolveGroup' | 'resolveProject'>;
}

/**
 * GitLab's `Ci::Runners::CreateRunnerService`: the scope validated first (`Missing/invalid group`
 * or `project` → 400), then the caller authorised (instance runners: administrators; group runners:
 * the group's owners; project runners: the project's maintainers; else 403 `Insufficient
 * permissions`). Answers the runner and its token, shown this once.
 */
export async function createRunner(deps: RunnerServiceDeps, user: Actor, input: Omit<NewRunner, 'creatorId'>): Promise<{ runner: Runner; token: string }> {
  let level: number = user.admin ? AccessLevel.OWNER : AccessLevel.NONE;
  let needed: number = AccessLevel.OWNER;
  if (input.runnerType === 'group_type') {
    const group = await deps.identity.resolveGroup(String(input.groupId), user.id);
    if (!group) throw new BadRequestError('Missing/invalid group');
    level = Math.max(level, group.access_level);
    input = { ...input, groupFullPath: group.full_path };
  } else if (input.runnerType === 'project_type') {
    const project = await deps.identity.resolveProject(String(input.projectId), user.id);
    if (!project) throw new BadRequestError('Missing/invalid project');
    level = Math.max(level, project.access_level);
    needed = AccessLevel.MAINTAINER;
  } else if (!user.admin) {
    level = AccessLevel.NONE;
  }
  if (level < needed) throw new ForbiddenError('Insufficient permissions');
  const token = newRunnerToken(input.runnerType);
  const runner = await runnerStore.insert(deps.db, { ...input, creatorId: user.id }, token);
  return { runner, token };
}

/** The runner a runner route's token names; unknown → `403 Forbidden` (GitLab's `authenticate_runner!`). */
export async function authenticateRunner(db: Knex, token: string | undefined): Promise<Runner> {
  const runner = token ? await runnerStore.findByToken(db, token) : null;
  if (!runner) throw new ForbiddenError();
  return runner;
}
