import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** A (thin) merge request row. */
export interface MergeRequestRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  author_id: number;
  source_branch: string;
  target_branch: string;
  source_project_id: number;
  milestone_id: number | null;
  draft: boolean;
  squash: boolean;
  remove_source_branch: boolean | null;
  discussion_locked: boolean | null;
  sha: string | null;
  merge_commit_sha: string | null;
  closed_by_id: number | null;
  closed_at: Date | null;
  merged_by_id: number | null;
  merged_at: Date | null;
  user_notes_count: number;
  upvotes: number;
  downvotes: number;
  time_estimate: number;
  total_time_spent: number;
  created_at: Date;
  updated_at: Date;
}

/** One merge request of a project by iid. */
export async function findMergeRequest(db: Db, projectId: number, iid: number): Promise<MergeRequestRow | undefined> {
  return db('merge_requests').where({ project_id: projectId, iid }).first();
}

/** An open merge request with the same source and target branch, if any. */
export async function openDuplicate(db: Db, projectId: number, source: string, target: string, exceptId?: number): Promise<MergeRequestRow | undefined> {
  const q = db('merge_requests').where({ project_id: projectId, source_branch: source, target_branch: target, state: 'opened' });
  if (exceptId) q.whereNot({ id: exceptId });
  return q.first();
}

/** Merge requests of a project, newest first, by state (`all` for every state). */
export function mergeRequestsOf(db: Db, projectId: number, state: string): Knex.QueryBuilder {
  const q = db('merge_requests').where({ project_id: projectId });
  if (state !== 'all') q.where({ state });
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc');
}

/** Replaces the issue links of a merge request. */
export async function setIssueLinks(db: Db, mrId: number, links: { issueId: number; type: 'closes' | 'mentions' }[]): Promise<void> {
  await db('merge_request_issues').where({ merge_request_id: mrId }).delete();
  if (links.length) await db('merge_request_issues').insert(links.map((l) => ({ merge_request_id: mrId, issue_id: l.issueId, link_type: l.type })));
}

/**
 * Merge requests linked to an issue (`closes` only, or any link), newest first: those of
 * `ownProjectId` (the caller reads it), and, unless `onlyOwn`, those of other projects the
 * viewer may read (`readable` is a SQL condition on `p`).
 */
export function linkedMergeRequests(db: Db, issueId: number, opts: { onlyClosing: boolean; readable: Knex.Raw; ownProjectId: number; onlyOwn: boolean }): Knex.QueryBuilder {
  const q = db('merge_requests as m')
    .select('m.*')
    .join('merge_request_issues as l', 'l.merge_request_id', 'm.id')
    .leftJoin('projects as p', 'p.id', 'm.project_id')
    .where('l.issue_id', issueId);
  if (opts.onlyClosing) q.where('l.link_type', 'closes');
  if (opts.onlyOwn) q.where('m.project_id', opts.ownProjectId);
  else q.where((w) => w.where('m.project_id', opts.ownProjectId).orWhereRaw('?', [opts.readable]));
  return q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc');
}
