/**
 * Commits of the Repository Files API: one file created, updated or deleted per commit, with
 * GitLab's validations (Commits::CreateService, Files::UpdateService) and Gitaly's index errors.
 * A project's commits are serialised by a lock on its repository row.
 * See ../shared/reference/repository-files.md §4 and §5.
 */
import type { Knex } from 'knex';
import { NOT_ALLOWED_TO_PUSH, RepositoryError } from './errors';
import { BLANK_SHA, commitId, Signature, TreeEntry } from './git-objects';
import { branchPushed, defaultBranchChanged } from './repository-events';
import { commitsBySha, getBranch, insertCommit, lastCommitTouching, listBranchRows, lockRepository, putBlob, putTree, setBranch, setDefaultBranch, getTree } from './repository-store';
import { conflictsWithHierarchy, isValidBranchName } from './ref-names';
import { pathSegments } from './reader';
import { editTree, IndexError, PathChange } from './tree-edit';

/** What a file commit is asked to do. */
export interface FileCommitInput {
  projectId: number;
  actorId: number | null;
  branch: string;
  /** Defaults to `branch`. */
  startBranch?: string;
  path: string;
  /** The new content (create/update); null to delete. */
  content: Buffer | null;
  action: 'create' | 'update' | 'delete';
  executable?: boolean;
  message: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  lastCommitId?: string;
  /** The caller may push to protected branches (Maintainer and up). */
  canPushProtected: boolean;
}

/** The commit made and the branch it is on. */
export interface FileCommitResult {
  sha: string;
  branch: string;
}

/** Git drops `<`, `>` and line breaks from identities; stored as hashed. */
function cleanIdent(s: string): string {
  return s.replace(/[<>\n\r]/g, '').trim();
}

function signature(who: { name: string; email: string }, date: Date): Signature {
  return { name: cleanIdent(who.name), email: cleanIdent(who.email), date };
}

function newBranchError(branch: string, reason: string): RepositoryError {
  return new RepositoryError(`Something went wrong when we tried to create '${branch}' for you: ${reason}`);
}

async function validateBranches(trx: Knex.Transaction, input: FileCommitInput, start: string, repo: { defaultBranch: string | null; branches: string[] }): Promise<void> {
  const empty = repo.branches.length === 0;
  if (!input.canPushProtected && (empty || input.branch === repo.defaultBranch)) throw new RepositoryError(NOT_ALLOWED_TO_PUSH);
  if (empty) {
    if (!isValidBranchName(input.branch)) throw newBranchError(input.branch, 'Branch name is invalid');
    return;
  }
  if (!(await getBranch(trx, input.projectId, start))) throw new RepositoryError('You can only create or edit files when you are on a branch');
  if (input.branch === start) return;
  if (await getBranch(trx, input.projectId, input.branch)) {
    throw new RepositoryError(`A branch called '${input.branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (!isValidBranchName(input.branch)) throw newBranchError(input.branch, 'Branch name is invalid');
  if (conflictsWithHierarchy(repo.branches, input.branch)) throw newBranchError(input.branch, 'Branch name conflicts with existing branch hierarchy.');
}

/** The root tree of the parent (null: none) with the input's change applied; Gitaly's index errors as 400. */
async function changedTree(trx: Knex.Transaction, input: FileCommitInput, parentTree: string | null): Promise<string> {
  const change: PathChange = input.action === 'delete' ? { action: 'delete' } : { action: input.action, blobSha: await putBlob(trx, input.content as Buffer), executable: input.executable };
  const io = { read: (sha: string) => getTree(trx, sha), write: (entries: TreeEntry[]) => putTree(trx, entries) };
  try {
    return (await editTree(io, parentTree, pathSegments(input.path), change)) ?? (await putTree(trx, []));
  } catch (e) {
    if (e instanceof IndexError) throw new RepositoryError(e.message);
    throw e;
  }
}

/** Records the commit of `tree` on top of `parent` (stamped now, to the second) and answers its id. */
async function writeCommit(trx: Knex.Transaction, input: FileCommitInput, tree: string, parent: string | null): Promise<string> {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const author = signature(input.author, now);
  const committer = signature(input.committer, now);
  const parents = parent ? [parent] : [];
  const sha = commitId({ tree, parents, author, committer, message: input.message });
  await insertCommit(trx, {
    project_id: input.projectId, sha, tree_sha: tree, parent_shas: parents,
    author_name: author.name, author_email: author.email, authored_at: now,
    committer_name: committer.name, committer_email: committer.email, committed_at: now,
    message: input.message, changed_paths: [pathSegments(input.path).join('/')],
  });
  return sha;
}

/** Makes the commit of one file change on `branch` (from `startBranch`), moving or creating the branch. */
export async function commitFile(db: Knex, input: FileCommitInput): Promise<FileCommitResult> {
  return db.transaction(async (trx) => {
    const repo = await lockRepository(trx, input.projectId);
    const branches = (await listBranchRows(trx, input.projectId)).map((b) => b.name);
    const start = input.startBranch ?? input.branch;
    await validateBranches(trx, input, start, { defaultBranch: repo.defaultBranch, branches });
    const parent = branches.length ? ((await getBranch(trx, input.projectId, start))?.commit_sha ?? null) : null;
    if (parent && input.action === 'update' && input.lastCommitId) {
      const last = await lastCommitTouching(trx, input.projectId, parent, pathSegments(input.path).join('/'));
      if (last && last !== input.lastCommitId) throw new RepositoryError('You are attempting to update a file that has changed since you started editing it.');
    }
    const parentTree = parent ? ((await commitsBySha(trx, input.projectId, [parent])).get(parent)?.tree_sha ?? null) : null;
    const sha = await writeCommit(trx, input, await changedTree(trx, input, parentTree), parent);
    const before = (await getBranch(trx, input.projectId, input.branch))?.commit_sha ?? BLANK_SHA;
    await setBranch(trx, input.projectId, input.branch, sha);
    await branchPushed(trx, { project_id: input.projectId, ref: input.branch, before, after: sha, user_id: input.actorId });
    if (!branches.length) {
      await setDefaultBranch(trx, input.projectId, input.branch);
      await defaultBranchChanged(trx, { project_id: input.projectId, default_branch: input.branch, previous: repo.defaultBranch, actor_id: input.actorId });
    }
    return { sha, branch: input.branch };
  });
}
