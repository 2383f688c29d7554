/**
 * Changing one path of a Git tree: the trees along the path are rewritten bottom-up and the others
 * kept by id, as Git (and Gitaly's UserCommitFiles) does. Storage is passed in, so the logic is
 * pure and the errors are Gitaly's index errors (../shared/reference/repository-files.md §4).
 */
import { EXECUTABLE_MODE, FILE_MODE, isTree, TREE_MODE, TreeEntry } from './git-objects';

/** Gitaly's index errors, answered 400 with this message. */
export class IndexError extends Error {}

export const FILE_EXISTS = 'A file with this name already exists';
export const FILE_MISSING = "A file with this name doesn't exist";
export const DIRECTORY_EXISTS = 'A directory with this name already exists';

/** What to do at the path: create or update a file with a blob, or delete it. */
export type PathChange = { action: 'create' | 'update'; blobSha: string; executable?: boolean } | { action: 'delete' };

/** Reads a tree's entries and writes a new tree (returning its id). */
export interface TreeIo {
  read(sha: string): Promise<TreeEntry[]>;
  write(entries: TreeEntry[]): Promise<string>;
}

/**
 * The id of the tree `root` (null: the empty tree) with `change` applied at `segments`, or null when
 * the result is an empty tree (a directory left empty disappears; the caller writes an empty root).
 */
export async function editTree(io: TreeIo, root: string | null, segments: string[], change: PathChange): Promise<string | null> {
  const entries = root ? await io.read(root) : [];
  const [name, ...rest] = segments;
  const existing = entries.find((e) => e.name === name);
  const others = entries.filter((e) => e !== existing);
  let replacement: TreeEntry | null;
  if (rest.length) {
    if (existing && !isTree(existing)) {
      if (change.action === 'create') throw new IndexError(FILE_EXISTS);
      throw new IndexError(FILE_MISSING);
    }
    if (!existing && change.action !== 'create') throw new IndexError(FILE_MISSING);
    const sub = await editTree(io, existing?.sha ?? null, rest, change);
    replacement = sub ? { mode: TREE_MODE, name, sha: sub } : null;
  } else {
    replacement = leaf(existing, name, change);
  }
  const next = replacement ? [...others, replacement] : others;
  return next.length ? io.write(next) : null;
}

function leaf(existing: TreeEntry | undefined, name: string, change: PathChange): TreeEntry | null {
  if (change.action === 'create') {
    if (existing) throw new IndexError(isTree(existing) ? DIRECTORY_EXISTS : FILE_EXISTS);
    return { mode: change.executable ? EXECUTABLE_MODE : FILE_MODE, name, sha: change.blobSha };
  }
  if (!existing || isTree(existing)) throw new IndexError(FILE_MISSING);
  if (change.action === 'delete') return null;
  const mode = change.executable === undefined ? existing.mode : change.executable ? EXECUTABLE_MODE : FILE_MODE;
  return { mode, name, sha: change.blobSha };
}
