/**
 * Git object ids, computed exactly as Git does for SHA-1 repositories: the SHA-1 of
 * `"<type> <byte length>\0" + body` (git/git object-file.c `format_object_header`). Tree bodies
 * follow builtin/mktree.c, entry order follows `base_name_compare`, commit bodies follow commit.c.
 * See ../shared/reference/repository-files.md §7.
 */
import { createHash } from 'node:crypto';

/** Modes of tree entries (octal, as Git writes them). */
export const FILE_MODE = '100644';
export const EXECUTABLE_MODE = '100755';
export const TREE_MODE = '40000';

/** One entry of a tree object. */
export interface TreeEntry {
  mode: string;
  name: string;
  sha: string;
}

/** `<ident>` of an author or committer line: name, e-mail and a moment (written in UTC). */
export interface Signature {
  name: string;
  email: string;
  date: Date;
}

/** What a commit object holds. */
export interface CommitObject {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

/** The id of an object of `type` with `body`. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** The id of a blob holding exactly `content`. */
export function blobId(content: Buffer): string {
  return objectId('blob', content);
}

/** Whether an entry is a directory (a tree). */
export function isTree(e: Pick<TreeEntry, 'mode'>): boolean {
  return e.mode === TREE_MODE;
}

/** Git's name order: byte-wise, a tree's name compared as if it ended with `/`. */
export function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const an = Buffer.from(isTree(a) ? `${a.name}/` : a.name);
  const bn = Buffer.from(isTree(b) ? `${b.name}/` : b.name);
  return Buffer.compare(an, bn);
}

/** The entries in Git's order (a copy). */
export function sortEntries(entries: TreeEntry[]): TreeEntry[] {
  return [...entries].sort(compareEntries);
}

/** The body of a tree object: `<mode> SP <name> NUL <20 raw id bytes>` per entry, in Git's order. */
export function treeBody(entries: TreeEntry[]): Buffer {
  return Buffer.concat(sortEntries(entries).flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.sha, 'hex')]));
}

/** The id of a tree with these entries. */
export function treeId(entries: TreeEntry[]): string {
  return objectId('tree', treeBody(entries));
}

/** `Name <email> <unix seconds> +0000` (git/git date.c `date_string`, in UTC). */
export function ident(s: Signature): string {
  return `${s.name} <${s.email}> ${Math.floor(s.date.getTime() / 1000)} +0000`;
}

/** The body of a commit object (commit.c `commit_tree_extended`), the message kept byte for byte. */
export function commitBody(c: CommitObject): Buffer {
  const head = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${ident(c.author)}`, `committer ${ident(c.committer)}`];
  return Buffer.from(`${head.join('\n')}\n\n${c.message}`);
}

/** The id of a commit object. */
export function commitId(c: CommitObject): string {
  return objectId('commit', commitBody(c));
}

/** A Git id of every zero: GitLab's `before` of a branch's first commit (Gitlab::Git::SHA1_BLANK_SHA). */
export const BLANK_SHA = '0'.repeat(40);
