/**
 * Commands of the Branches API (Branches::CreateService, Branches::DeleteService): a branch is a
 * name pointing at a commit; creating one in an empty repository first commits an empty README.md
 * on the default branch, as GitLab does (../shared/reference/repository-files.md §5, §6).
 */
import type { Knex } from 'knex';
import { BLANK_SHA } from './git-objects';
import { commitFile } from './commit-service';
import { DEFAULT_BRANCH_UNDELETABLE, RepositoryError } from './errors';
import { conflictsWithHierarchy, isValidBranchName } from './ref-names';
import { branchPushed } from './repository-events';
import { BranchRow, commitByPrefix, deleteBranchRow, getBranch, listBranchRows, lockRepository, setBranch } from './repository-store';

/** Who asks, as the commit of an empty repository's README.md needs it. */
export interface BranchActor {
  actorId: number | null;
  name: string;
  email: string;
  canPushProtected: boolean;
}

/** The branch GitLab creates first in an empty repository (`default_branch_or_main`). */
export const INITIAL_BRANCH = 'main';

/** The commit a `ref` names: a branch's head, else a commit id or unique prefix (7+ hex digits). */
export async function resolveCommitish(db: Knex | Knex.Transaction, projectId: number, ref: string): Promise<string | null> {
  const branch = await getBranch(db, projectId, ref);
  if (branch) return branch.commit_sha;
  if (!/^[0-9a-f]{7,40}$/i.test(ref)) return null;
  return (await commitByPrefix(db, projectId, ref.toLowerCase()))?.sha ?? null;
}

/** Creates `name` at the commit `ref` names; GitLab's messages for every refusal. */
export async function createBranch(db: Knex, projectId: number, name: string, ref: string, actor: BranchActor): Promise<BranchRow> {
  if (!isValidBranchName(name)) throw new RepositoryError('Branch name is invalid');
  if (!(await listBranchRows(db, projectId)).length) {
    const who = { name: actor.name, email: actor.email };
    await commitFile(db, { projectId, actorId: actor.actorId, branch: INITIAL_BRANCH, path: 'README.md', content: Buffer.alloc(0), action: 'create', message: 'Add README.md', author: who, committer: who, canPushProtected: actor.canPushProtected });
  }
  return db.transaction(async (trx) => {
    await lockRepository(trx, projectId);
    const names = (await listBranchRows(trx, projectId)).map((b) => b.name);
    if (names.includes(name)) throw new RepositoryError('Branch already exists');
    const sha = await resolveCommitish(trx, projectId, ref);
    if (!sha) throw new RepositoryError(`Failed to create branch '${name}': invalid reference name '${ref}'`);
    if (conflictsWithHierarchy(names, name)) throw new RepositoryError(`Failed to create branch '${name}': Branch name conflicts with existing branch hierarchy.`);
    await setBranch(trx, projectId, name, sha);
    await branchPushed(trx, { project_id: projectId, ref: name, before: BLANK_SHA, after: sha, user_id: actor.actorId });
    return (await getBranch(trx, projectId, name)) as BranchRow;
  });
}

/** Deletes a branch: 404 when missing, 400 for the default branch (the push check refuses it). */
export async function deleteBranch(db: Knex, projectId: number, name: string, actorId: number | null): Promise<void> {
  await db.transaction(async (trx) => {
    const repo = await lockRepository(trx, projectId);
    const branch = await getBranch(trx, projectId, name);
    if (!branch) throw new RepositoryError('404 Branch Not Found', 404);
    if (name === repo.defaultBranch) throw new RepositoryError(DEFAULT_BRANCH_UNDELETABLE);
    await deleteBranchRow(trx, projectId, name);
    await branchPushed(trx, { project_id: projectId, ref: name, before: branch.commit_sha, after: BLANK_SHA, user_id: actorId });
  });
}
