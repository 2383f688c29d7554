import type { IdentityClient, ProjectScope } from '@anvil/auth';
import type { Db } from '@anvil/db';
import { BadRequestError } from '@anvil/http';
import { fullPathFromUsername } from '../conan/reference';
import { MAX_SEARCH_RESULTS, planSearch, type SearchPlan } from '../conan/search-query';
import { type Caller, canReadPackages } from '../auth/policy';
import { packageStore } from './package-store';
import type { Package } from './types';

type Searchable = Extract<SearchPlan, { kind: 'search' }>;

/**
 * The projects an instance-level search may look in: the project the query's username names when the
 * caller may read its packages (a username with a wildcard names none, as in GitLab), else every
 * project the caller may read (identity decides which).
 */
async function instanceProjects(identity: IdentityClient, caller: Caller, plan: Searchable): Promise<number[]> {
  const userId = caller.user?.id ?? null;
  if (plan.username) {
    if (plan.username.includes('*')) return [];
    const project = await identity.resolveProject(fullPathFromUsername(plan.username), userId);
    return project && canReadPackages(caller, project) ? [project.id] : [];
  }
  return identity.readableProjectIds(userId);
}

/**
 * `conans/search?q=`: packages matching the query, at most 500, most recent first, only in `project`
 * (project level) or in projects the caller may read (instance level). Bad queries → 400.
 */
export async function searchPackages(
  db: Db,
  identity: IdentityClient,
  caller: Caller,
  q: string,
  opts: { project?: ProjectScope; ignoreCase: boolean },
): Promise<Package[]> {
  const plan = planSearch(q);
  if (plan.kind === 'error') throw new BadRequestError(plan.message);
  if (plan.kind === 'empty') return [];
  const projectIds = opts.project ? [opts.project.id] : await instanceProjects(identity, caller, plan);
  return packageStore.search(db, { projectIds, name: plan.name, version: plan.version, ignoreCase: opts.ignoreCase, limit: MAX_SEARCH_RESULTS });
}
