/**
 * Markdown task lists in a description, counted as GitLab's `Taskable` does: a task is a list
 * item (`-`, `+`, `*` or `1.`, optionally inside a blockquote) followed by `[ ]`, `[x]` or `[X]`
 * and some text.
 */
const ITEM = /^(?:(?:>\s{0,4})*)((?:\s*(?:[-+*]|(?:\d+\.)))+)\s+(\[\s\]|\[[xX]\])(\s.+)/gm;

/** `count` task items and `completed_count` checked ones. */
export interface TaskCompletion {
  count: number;
  completed_count: number;
}

/** Counts the task-list items of a description. */
export function taskCompletion(description: string | null | undefined): TaskCompletion {
  let count = 0;
  let completed = 0;
  if (!description) return { count, completed_count: completed };
  for (const m of description.matchAll(ITEM)) {
    count++;
    if (/\[[xX]\]/.test(m[2])) completed++;
  }
  return { count, completed_count: completed };
}

/** `"1 of 3 tasks completed"` (GitLab's `task_status`); '' for an empty description. */
export function taskStatus(description: string | null | undefined): string {
  if (!description) return '';
  const t = taskCompletion(description);
  return `${t.completed_count} of ${t.count} ${t.count === 1 ? 'task' : 'tasks'} completed`;
}

/** A task-list item: its text (stripped) and whether it is checked. */
export interface TaskItem {
  text: string;
  completed: boolean;
}

/** The task-list items of a description, in order. */
export function taskItems(description: string | null | undefined): TaskItem[] {
  return [...(description ?? '').matchAll(ITEM)].map((m) => ({ text: m[3].trim(), completed: /\[[xX]\]/.test(m[2]) }));
}

/** `Taskable.get_updated_tasks`: new items whose same-position old item has the same text but was (un)checked. */
export function updatedTasks(oldDescription: string | null | undefined, newDescription: string | null | undefined): TaskItem[] {
  const before = taskItems(oldDescription);
  return taskItems(newDescription).filter((t, i) => before[i] !== undefined && before[i].text === t.text && before[i].completed !== t.completed);
}
