import type { Knex } from 'knex';
import { NotModifiedError } from '@anvil/http';
import type { IssueRow } from '../issues/issue-row';

type Db = Knex | Knex.Transaction;

/** A to-do row. */
export interface TodoRow {
  id: number;
  user_id: number;
  project_id: number | null;
  group_id: number | null;
  author_id: number;
  target_type: string;
  target_id: number;
  action: string;
  state: 'pending' | 'done';
  body: string | null;
  created_at: Date;
  updated_at: Date;
}

/** GitLab's action names by action. */
export const ACTION_NAMES: Record<string, string> = { marked: 'marked', assigned: 'assigned', mentioned: 'mentioned' };

/**
 * Marks an issue as a to-do for the user (`marked`, authored by the user, body = title);
 * a pending one for the same issue already existing is `304 Not Modified`.
 */
export async function markIssueTodo(db: Knex, issue: IssueRow, userId: number): Promise<TodoRow> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`todo:${userId}:Issue:${issue.id}`]);
    const existing = await trx('todos').where({ user_id: userId, target_type: 'Issue', target_id: issue.id, action: 'marked', state: 'pending' }).first();
    if (existing) throw new NotModifiedError();
    const [row] = await trx('todos').insert({
      user_id: userId, project_id: issue.project_id, author_id: userId, target_type: 'Issue', target_id: issue.id, action: 'marked', body: issue.title,
    }).returning('*');
    return row;
  });
}

/** The user's to-dos, newest first, filtered like GitLab's `TodosFinder`. */
export function todosOf(db: Db, userId: number, f: { state?: string; action?: string; projectId?: number; groupId?: number; authorId?: number; type?: string }): Knex.QueryBuilder {
  const q = db('todos').where({ user_id: userId });
  if (f.state && f.state !== 'all') q.where({ state: f.state });
  if (f.action) q.where({ action: f.action });
  if (f.projectId !== undefined) q.where({ project_id: f.projectId });
  if (f.groupId !== undefined) q.where({ group_id: f.groupId });
  if (f.authorId !== undefined) q.where({ author_id: f.authorId });
  if (f.type) q.where({ target_type: f.type });
  return q.orderBy('id', 'desc');
}

/** Marks one of the user's to-dos (or all pending ones when `id` is omitted) as done. */
export async function markDone(db: Db, userId: number, id?: number): Promise<TodoRow | undefined> {
  const q = db('todos').where({ user_id: userId }).where({ state: 'pending' });
  if (id !== undefined) q.where({ id });
  await q.update({ state: 'done', updated_at: new Date() });
  return id !== undefined ? db('todos').where({ user_id: userId, id }).first() : undefined;
}
