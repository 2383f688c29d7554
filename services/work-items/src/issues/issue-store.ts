import type { Knex } from 'knex';
import { queryPrepared } from '@anvil/db';
import { Issue, issueColumns, issueFromRow, IssueRow } from './issue-row';

type Db = Knex | Knex.Transaction;

/** One issue of a project by iid (prepared outside transactions: the single-issue routes run it each time). */
export async function findIssueByIid(db: Db, projectId: number, iid: number): Promise<Issue | undefined> {
  const row: IssueRow | undefined = 'isTransaction' in db && db.isTransaction
    ? (await db.raw(`SELECT ${issueColumns()} FROM issues i WHERE i.project_id = ? AND i.iid = ?`, [projectId, iid])).rows[0]
    : (await queryPrepared<IssueRow>(db as Knex, { sql: `SELECT ${issueColumns()} FROM issues i WHERE i.project_id = $1 AND i.iid = $2`, bindings: [projectId, iid] }))[0];
  return row && issueFromRow(row);
}

/** One issue by global id. */
export async function findIssueById(db: Db, id: number): Promise<Issue | undefined> {
  const r = await db.raw(`SELECT ${issueColumns()} FROM issues i WHERE i.id = ?`, [id]);
  return r.rows[0] && issueFromRow(r.rows[0]);
}

/** Issues by global id, in no particular order. */
export async function findIssuesByIds(db: Db, ids: number[]): Promise<Issue[]> {
  if (!ids.length) return [];
  const r = await db.raw(`SELECT ${issueColumns()} FROM issues i WHERE i.id = ANY(?)`, [ids]);
  return (r.rows as IssueRow[]).map(issueFromRow);
}

/**
 * The next internal id in a scope (`project` issues, `project` merge requests, `group` epics…),
 * allocated atomically; with `atLeast` the counter jumps to that value when it is behind.
 */
export async function nextInternalId(db: Db, scope: string, scopeId: number, usage: string): Promise<number> {
  const r = await db.raw(
    `INSERT INTO internal_ids (scope, scope_id, usage, last_value) VALUES (?, ?, ?, 1)
     ON CONFLICT (scope, scope_id, usage) DO UPDATE SET last_value = internal_ids.last_value + 1 RETURNING last_value`,
    [scope, scopeId, usage],
  );
  return r.rows[0].last_value;
}

/** Records an explicitly chosen internal id so later allocations go past it. */
export async function trackInternalId(db: Db, scope: string, scopeId: number, usage: string, value: number): Promise<void> {
  await db.raw(
    `INSERT INTO internal_ids (scope, scope_id, usage, last_value) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope, scope_id, usage) DO UPDATE SET last_value = GREATEST(internal_ids.last_value, EXCLUDED.last_value)`,
    [scope, scopeId, usage, value],
  );
}

/** Inserts an issue with the given columns and returns it. */
export async function insertIssue(db: Db, values: Partial<IssueRow>): Promise<Issue> {
  const [{ id }] = await db('issues').insert(values).returning('id');
  return (await findIssueById(db, id)) as Issue;
}

/** Updates columns of an issue and returns it as it now is. */
export async function updateIssueRow(db: Db, id: number, values: Partial<IssueRow>): Promise<Issue> {
  if (Object.keys(values).length) await db('issues').where({ id }).update(values);
  return (await findIssueById(db, id)) as Issue;
}

/** Replaces an issue's assignees. */
export async function setAssignees(db: Db, issueId: number, userIds: number[]): Promise<void> {
  await db('issue_assignees').where({ issue_id: issueId }).delete();
  if (userIds.length) await db('issue_assignees').insert(userIds.map((user_id) => ({ issue_id: issueId, user_id })));
}

/** The user ids assigned to an issue. */
export async function assigneeIds(db: Db, issueId: number): Promise<number[]> {
  const rows: { user_id: number }[] = await db('issue_assignees').select('user_id').where({ issue_id: issueId }).orderBy('user_id');
  return rows.map((r) => r.user_id);
}

/** Replaces an issue's labels. */
export async function setIssueLabels(db: Db, issueId: number, labelIds: number[]): Promise<void> {
  await db('issue_labels').where({ issue_id: issueId }).delete();
  const unique = [...new Set(labelIds)];
  if (unique.length) await db('issue_labels').insert(unique.map((label_id) => ({ issue_id: issueId, label_id })));
}

/** The label titles of an issue, sorted (what issue events carry). */
export async function issueLabelTitles(db: Db, issueId: number): Promise<string[]> {
  const rows: { title: string }[] = await db('issue_labels as il').join('labels as l', 'l.id', 'il.label_id').where('il.issue_id', issueId).select('l.title').orderBy('l.title');
  return rows.map((r) => r.title);
}

/** The label ids of an issue. */
export async function issueLabelIds(db: Db, issueId: number): Promise<number[]> {
  const rows: { label_id: number }[] = await db('issue_labels').select('label_id').where({ issue_id: issueId });
  return rows.map((r) => r.label_id);
}

/** Deletes an issue (assignees, labels, time logs and links go with it). */
export async function deleteIssueRow(db: Db, issue: Issue): Promise<void> {
  await db('todos').where({ target_type: 'Issue', target_id: issue.id }).delete();
  await db('notes').where({ noteable_type: 'Issue', noteable_id: issue.id }).delete();
  await db('award_emoji').where({ awardable_type: 'Issue', awardable_id: issue.id }).delete();
  await db('subscriptions').where({ subscribable_type: 'Issue', subscribable_id: issue.id }).delete();
  await db('issues').where({ id: issue.id }).delete();
}
