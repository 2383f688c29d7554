/**
 * Reading a file at a ref for the Repository Files API: the ref resolves to a commit (branch, then
 * commit id), the path to a blob of that commit's tree, as GitLab's `assign_file_vars!` does.
 */
import type { Knex } from 'knex';
import { NotFoundError } from '@anvil/http';
import { EXECUTABLE_MODE, isTree } from './git-objects';
import { resolveCommitish } from './branch-service';
import { pathSegments } from './reader';
import { defaultBranchOf, entryAt, getBlob, getCommit, lastCommitTouching } from './repository-store';

/** A blob found at a path of a commit, with what the API's metadata needs. */
export interface FoundFile {
  fileName: string;
  filePath: string;
  content: Buffer;
  blobId: string;
  commitId: string;
  lastCommitId: string | null;
  executable: boolean;
}

/** The file at `path` of the commit `ref` names (default branch when `ref` is absent); 404 Commit / File. */
export async function findFile(db: Knex, projectId: number, ref: string | undefined, path: string): Promise<FoundFile> {
  const name = ref ?? (await defaultBranchOf(db, projectId));
  const sha = name ? await resolveCommitish(db, projectId, name) : null;
  const commit = sha ? await getCommit(db, projectId, sha) : undefined;
  if (!commit) throw new NotFoundError('Commit');
  const segments = pathSegments(path);
  const entry = segments.length ? await entryAt(db, commit.tree_sha, segments) : null;
  if (!entry || isTree(entry)) throw new NotFoundError('File');
  const blob = await getBlob(db, entry.sha);
  if (!blob) throw new NotFoundError('File');
  return {
    fileName: segments[segments.length - 1],
    filePath: path,
    content: blob.content,
    blobId: blob.sha,
    commitId: commit.sha,
    lastCommitId: await lastCommitTouching(db, projectId, commit.sha, segments.join('/')),
    executable: entry.mode === EXECUTABLE_MODE,
  };
}
