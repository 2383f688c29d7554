/** GitLab's Branch entity (lib/api/entities/branch.rb), keys in GitLab's order. */
import type { BranchRow, CommitRow } from '../repository/repository-store';
import { ProjectWeb, toCommit } from './commit';

/** What the Branch entity needs beyond the branch and its head commit. */
export interface BranchFacts {
  merged: boolean;
  /** The default branch: protected, Maintainers only (GitLab's default branch protection). */
  isDefault: boolean;
  canPush: boolean;
}

/** The Branch entity. */
export function toBranch(b: Pick<BranchRow, 'name'>, head: CommitRow, facts: BranchFacts, web: ProjectWeb) {
  return {
    name: b.name,
    commit: toCommit(head, web),
    merged: facts.merged,
    protected: facts.isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: facts.canPush,
    default: facts.isDefault,
    web_url: `${web.base}/${web.pathWithNamespace}/-/tree/${b.name}`,
  };
}
