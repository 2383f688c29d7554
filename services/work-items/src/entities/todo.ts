import type { ProjectRow, UserRow } from '../read-model/store';
import type { Todo } from '../todos/todo-store';
import { ACTION_NAMES } from '../todos/todo-store';
import { timestamps } from './timestamps';
import { toUserBasic } from './user';

/** GitLab's `ProjectIdentity` (what a to-do embeds as `project`). */
export function toProjectIdentity(p: ProjectRow, nameWithNamespace: string): Record<string, unknown> {
  return { id: p.id, description: null, name: p.name, name_with_namespace: nameWithNamespace, path: p.path, path_with_namespace: p.path_with_namespace, created_at: null };
}

/** GitLab's `Todo` entity; `target` is the already serialised issue. */
export function toTodo(
  t: Todo,
  o: { project: Record<string, unknown> | null; author: UserRow | undefined; target: Record<string, unknown> | null; targetUrl: string },
): Record<string, unknown> {
  return {
    id: t.id,
    project: o.project,
    author: toUserBasic(o.author),
    action_name: ACTION_NAMES[t.action] ?? t.action,
    target_type: t.targetType,
    target: o.target,
    target_url: o.targetUrl,
    body: t.body,
    state: t.state,
    ...timestamps(t),
  };
}
