import type { Knex } from 'knex';
import { NotModifiedError } from '@anvil/http';
import { emitTodoEvent, TodoEvents } from '../events/work-item-events';
import type { Issue } from '../issues/issue-row';
import { todoFromRow, type Todo, type TodoRow } from './todo-row';

type Db = Knex | Knex.Transaction;

export { todoFromRow, type Todo, type TodoRow } from './todo-row';

/** GitLab's action names by action. */
export const ACTION_NAMES: Record<string, string> = { marked: 'marked', assigned: 'assigned', mentioned: 'mentioned' };

/**
 * Marks an issue as a to-do for the user (`marked`, authored by the user, body = title);
 * a pending one for the same issue already existing is `304 Not Modified`.
 */
export async function markIssueTodo(db: Knex, issue: Issue, userId: number): Promise<Todo> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`todo:${userId}:Issue:${issue.id}`]);
    const existing = await trx('todos').where({ user_id: userId, target_type: 'Issue', target_id: issue.id, action: 'marked', state: 'pending' }).first();
    if (existing) throw new NotModifiedError();
    const [row] = await trx('todos').insert({
      user_id: userId, project_id: issue.projectId, author_id: userId, target_type: 'Issue', target_id: issue.id, action: 'marked', body: issue.title,
    }).returning('*');
    const todo = todoFromRow(row);
    await emitTodoEvent(trx, TodoEvents.created, todo);
    return todo;
  });
}

/**
 * Marks one of the user's to-dos (or all pending ones when `id` is omitted) as done, announcing
 * `work-items.todo.updated` for each one that changed; returns the one asked for (undefined if not the user's).
 */
export async function markDone(db: Knex, userId: number, id?: number): Promise<Todo | undefined> {
  return db.transaction(async (trx) => {
    const q = trx('todos').where({ user_id: userId }).where({ state: 'pending' });
    if (id !== undefined) q.where({ id });
    const changed: TodoRow[] = await q.update({ state: 'done', updated_at: new Date() }).returning('*');
    for (const row of changed) await emitTodoEvent(trx, TodoEvents.updated, todoFromRow(row));
    if (id === undefined) return undefined;
    const row: TodoRow | undefined = await trx('todos').where({ user_id: userId, id }).first();
    return row && todoFromRow(row);
  });
}

/** Marks every pending to-do of the user on one target done (`TodoService#mark_pending_todos_as_done`). */
export async function markTargetTodosDone(db: Db, userId: number, targetType: string, targetId: number): Promise<void> {
  await db('todos').where({ user_id: userId, target_type: targetType, target_id: targetId, state: 'pending' }).update({ state: 'done', updated_at: new Date() });
}

/** Whether the user has a pending to-do on the target (the `/done` command's condition). */
export async function hasPendingTodo(db: Db, userId: number, targetType: string, targetId: number): Promise<boolean> {
  return !!(await db('todos').where({ user_id: userId, target_type: targetType, target_id: targetId, state: 'pending' }).first());
}
