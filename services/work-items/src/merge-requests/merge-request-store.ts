import type { Knex } from 'knex';
import { camelize, Camelized, RowTimestamps } from '../db/rows';
import { Issue, issueColumns, issueFromRow, IssueRow } from '../issues/issue-row';

type Db = Knex | Knex.Transaction;

/** A `merge_requests` row. */
export interface MergeRequestRow extends RowTimestamps {
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
}

/** A (thin) merge request: what its entities show, without diffs or pipelines. */
export type MergeRequest = Camelized<MergeRequestRow>;

/** The domain merge request of a row. */
export const mergeRequestFromRow: (r: MergeRequestRow) => MergeRequest = camelize;

const one = (row: MergeRequestRow | undefined): MergeRequest | undefined => row && mergeRequestFromRow(row);

/** One merge request of a project by iid. */
export async function findMergeRequest(db: Db, projectId: number, iid: number): Promise<MergeRequest | undefined> {
  return one(await db('merge_requests').where({ project_id: projectId, iid }).first());
}

/** An open merge request with the same source and target branch, if any. */
export async function openDuplicate(db: Db, projectId: number, source: string, target: string, exceptId?: number): Promise<MergeRequest | undefined> {
  const q = db('merge_requests').where({ project_id: projectId, source_branch: source, target_branch: target, state: 'opened' });
  if (exceptId) q.whereNot({ id: exceptId });
  return one(await q.first());
}

/** Inserts a merge request with the given columns. */
export async function insertMergeRequest(db: Db, columns: Partial<MergeRequestRow>): Promise<MergeRequest> {
  const [row] = await db('merge_requests').insert(columns).returning('*');
  return mergeRequestFromRow(row);
}

/** Updates a merge request's columns and `updated_at`. */
export async function updateMergeRequestColumns(db: Db, id: number, columns: Partial<MergeRequestRow>): Promise<MergeRequest> {
  const [row] = await db('merge_requests').where({ id }).update({ ...columns, updated_at: new Date() }).returning('*');
  return mergeRequestFromRow(row);
}

/** Replaces the assignees of a merge request. */
export async function setAssignees(db: Db, mrId: number, userIds: number[]): Promise<void> {
  await db('merge_request_assignees').where({ merge_request_id: mrId }).delete();
  if (userIds.length) await db('merge_request_assignees').insert(userIds.map((user_id) => ({ merge_request_id: mrId, user_id })));
}

/** Replaces the labels of a merge request. */
export async function setLabels(db: Db, mrId: number, labelIds: number[]): Promise<void> {
  await db('merge_request_labels').where({ merge_request_id: mrId }).delete();
  if (labelIds.length) await db('merge_request_labels').insert(labelIds.map((label_id) => ({ merge_request_id: mrId, label_id })));
}

/** The open issues of `projectId` a merge request closes (`closes` links). */
export async function openIssuesClosedBy(db: Db, mrId: number, projectId: number): Promise<Issue[]> {
  const rows: IssueRow[] = await db('issues as i').join('merge_request_issues as l', 'l.issue_id', 'i.id')
    .where({ 'l.merge_request_id': mrId, 'l.link_type': 'closes', 'i.project_id': projectId, 'i.state': 'opened' }).select(db.raw(issueColumns('i')));
  return rows.map(issueFromRow);
}

/** Merge requests of a project (`MergeRequestRow`s, for pagination), newest first, by state (`all` for every state). */
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
 * Merge requests linked to an issue (`MergeRequestRow`s; `closes` only, or any link), newest first: those of
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

/** Every merge request `linkedMergeRequests` selects, as domain merge requests (small lists). */
export async function allLinkedMergeRequests(db: Db, issueId: number, opts: Parameters<typeof linkedMergeRequests>[2]): Promise<MergeRequest[]> {
  return ((await linkedMergeRequests(db, issueId, opts)) as MergeRequestRow[]).map(mergeRequestFromRow);
}
