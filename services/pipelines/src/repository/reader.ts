import type { Knex } from 'knex';
import { BLANK_SHA } from './git-objects';
import { defaultBranchOf, entryAt, getBlob, getBranch, getCommit } from './repository-store';
import type { RepositoryReader, ResolvedRef } from './types';

/** Splits a repository path into its names (no empty ones). */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** The bytes of the file at `path` in commit `sha` of the project, or null. */
export async function readBlobAt(db: Knex, projectId: number, sha: string, path: string): Promise<Buffer | null> {
  const commit = await getCommit(db, projectId, sha);
  if (!commit) return null;
  const entry = await entryAt(db, commit.tree_sha, pathSegments(path));
  if (!entry || entry.mode === '40000') return null;
  const blob = await getBlob(db, entry.sha);
  return blob ? blob.content : null;
}

/** The RepositoryReader of the CI sources stored by this service (branch heads, files at commits). */
export const repositoryReader: RepositoryReader = {
  async resolveRef(db: Knex, projectId: number, ref: string): Promise<ResolvedRef | null> {
    const branch = await getBranch(db, projectId, ref);
    if (!branch) return null;
    const commit = await getCommit(db, projectId, branch.commit_sha);
    return { ref, sha: branch.commit_sha, beforeSha: commit?.parent_shas[0] ?? BLANK_SHA };
  },
  async readFile(db: Knex, projectId: number, sha: string, path: string): Promise<string | null> {
    const bytes = await readBlobAt(db, projectId, sha, path);
    return bytes ? bytes.toString('utf8') : null;
  },
  async defaultBranch(db: Knex, projectId: number): Promise<string | null> {
    return defaultBranchOf(db, projectId);
  },
};
