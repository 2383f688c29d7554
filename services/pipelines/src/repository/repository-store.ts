/**
 * Storage of the Git objects, commits and branches (tables of 20261126000100_create_repository).
 * Every function takes the knex or the transaction to run in.
 */
import type { Db } from '@anvil/db';
import { blobId, isTree, treeId, TreeEntry } from './git-objects';

/** A row of `repository_commits`. */
export interface CommitRow {
  project_id: number;
  sha: string;
  tree_sha: string;
  parent_shas: string[];
  author_name: string;
  author_email: string;
  authored_at: Date;
  committer_name: string;
  committer_email: string;
  committed_at: Date;
  message: string;
  changed_paths: string[];
}

/** A row of `repository_branches`. */
export interface BranchRow {
  project_id: number;
  name: string;
  commit_sha: string;
  created_at: Date;
  updated_at: Date;
}

/** A blob's bytes and size. */
export interface BlobRow {
  sha: string;
  size: number;
  content: Buffer;
}

/** The project's default branch, or null before its first commit. */
export async function defaultBranchOf(db: Db, projectId: number): Promise<string | null> {
  const row = await db('repositories').where({ project_id: projectId }).first('default_branch');
  return row?.default_branch ?? null;
}

/** Locks the project's repository row (created if missing) for the rest of the transaction; its default branch. */
export async function lockRepository(trx: Db, projectId: number): Promise<{ defaultBranch: string | null }> {
  await trx.raw('INSERT INTO repositories (project_id) VALUES (?) ON CONFLICT DO NOTHING', [projectId]);
  const row = await trx('repositories').where({ project_id: projectId }).forUpdate().first('default_branch');
  return { defaultBranch: row?.default_branch ?? null };
}

/** Sets the project's default branch. */
export async function setDefaultBranch(trx: Db, projectId: number, branch: string | null): Promise<void> {
  await trx('repositories').where({ project_id: projectId }).update({ default_branch: branch, updated_at: trx.fn.now() });
}

/** Stores a blob once (by id) and answers its id. */
export async function putBlob(trx: Db, content: Buffer): Promise<string> {
  const sha = blobId(content);
  await trx.raw('INSERT INTO repository_blobs (sha, size, content) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [sha, content.length, content]);
  return sha;
}

/** A blob, or undefined. */
export async function getBlob(db: Db, sha: string): Promise<BlobRow | undefined> {
  return db('repository_blobs').where({ sha }).first();
}

/** Stores a tree once (by id) and answers its id. */
export async function putTree(trx: Db, entries: TreeEntry[]): Promise<string> {
  const sha = treeId(entries);
  await trx.raw('INSERT INTO repository_trees (sha, entries) VALUES (?, ?::jsonb) ON CONFLICT DO NOTHING', [sha, JSON.stringify(entries)]);
  return sha;
}

/** A tree's entries ([] for an unknown tree). */
export async function getTree(db: Db, sha: string): Promise<TreeEntry[]> {
  const row = await db('repository_trees').where({ sha }).first('entries');
  return (row?.entries as TreeEntry[]) ?? [];
}

/** The entry at `path` (segments) below the tree `root`, or null. */
export async function entryAt(db: Db, root: string, segments: string[]): Promise<TreeEntry | null> {
  let tree = root;
  for (let i = 0; i < segments.length; i++) {
    const entry = (await getTree(db, tree)).find((e) => e.name === segments[i]);
    if (!entry) return null;
    if (i === segments.length - 1) return entry;
    if (!isTree(entry)) return null;
    tree = entry.sha;
  }
  return null;
}

/** A commit of the project, or undefined. */
export async function getCommit(db: Db, projectId: number, sha: string): Promise<CommitRow | undefined> {
  return db('repository_commits').where({ project_id: projectId, sha }).first();
}

/** Commits of the project by id, in one query. */
export async function commitsBySha(db: Db, projectId: number, shas: string[]): Promise<Map<string, CommitRow>> {
  if (!shas.length) return new Map();
  const rows: CommitRow[] = await db('repository_commits').where({ project_id: projectId }).whereIn('sha', [...new Set(shas)]);
  return new Map(rows.map((r) => [r.sha, r]));
}

/** The commit whose id starts with `prefix` (7 to 40 hex digits), when exactly one does. */
export async function commitByPrefix(db: Db, projectId: number, prefix: string): Promise<CommitRow | undefined> {
  const rows: CommitRow[] = await db('repository_commits').where({ project_id: projectId }).where('sha', 'like', `${prefix}%`).limit(2);
  return rows.length === 1 ? rows[0] : undefined;
}

/** Records a commit (a no-op when the project already has it). */
export async function insertCommit(trx: Db, row: CommitRow): Promise<void> {
  await trx('repository_commits').insert(row).onConflict(['project_id', 'sha']).ignore();
}

/** The last commit reachable from `head` by first parents whose change touched `path`, or null. */
export async function lastCommitTouching(db: Db, projectId: number, head: string, path: string): Promise<string | null> {
  const { rows } = await db.raw(
    `WITH RECURSIVE chain AS (
       SELECT sha, parent_shas, changed_paths, 0 AS depth FROM repository_commits WHERE project_id = :pid AND sha = :head
       UNION ALL
       SELECT c.sha, c.parent_shas, c.changed_paths, chain.depth + 1 FROM chain
       JOIN repository_commits c ON c.project_id = :pid AND c.sha = chain.parent_shas[1]
       WHERE NOT (:path = ANY (chain.changed_paths))
     )
     SELECT sha FROM chain WHERE :path = ANY (changed_paths) ORDER BY depth LIMIT 1`,
    { pid: projectId, head, path },
  );
  return rows[0]?.sha ?? null;
}

/** A branch of the project, or undefined. */
export async function getBranch(db: Db, projectId: number, name: string): Promise<BranchRow | undefined> {
  return db('repository_branches').where({ project_id: projectId, name }).first();
}

/** The branch, locked for the rest of the transaction, or undefined. */
export async function lockBranch(trx: Db, projectId: number, name: string): Promise<BranchRow | undefined> {
  return trx('repository_branches').where({ project_id: projectId, name }).forUpdate().first();
}

/** Every branch of the project, by name. */
export async function listBranchRows(db: Db, projectId: number): Promise<BranchRow[]> {
  return db('repository_branches').where({ project_id: projectId }).orderByRaw('name COLLATE "C"');
}

/** Points a branch at a commit (creating it when missing). */
export async function setBranch(trx: Db, projectId: number, name: string, sha: string): Promise<void> {
  await trx('repository_branches')
    .insert({ project_id: projectId, name, commit_sha: sha })
    .onConflict(['project_id', 'name'])
    .merge({ commit_sha: sha, updated_at: trx.fn.now() });
}

/** Removes a branch; whether it existed. */
export async function deleteBranchRow(trx: Db, projectId: number, name: string): Promise<boolean> {
  return (await trx('repository_branches').where({ project_id: projectId, name }).delete()) > 0;
}

/** Every commit reachable from `head` (itself included), by parents. */
export async function ancestorShas(db: Db, projectId: number, head: string): Promise<Set<string>> {
  const { rows } = await db.raw(
    `WITH RECURSIVE chain(sha) AS (
       SELECT :head::text
       UNION
       SELECT unnest(c.parent_shas) FROM chain JOIN repository_commits c ON c.project_id = :pid AND c.sha = chain.sha
     )
     SELECT sha FROM chain`,
    { pid: projectId, head },
  );
  return new Set((rows as { sha: string }[]).map((r) => r.sha));
}
