import { camelize, Camelized, RowTimestamps } from '../db/rows';

/** A `todos` row. */
export interface TodoRow extends RowTimestamps {
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
}

/** A to-do of a user about a target (today: issues). */
export type Todo = Camelized<TodoRow>;

/** The domain to-do of a row. */
export const todoFromRow: (r: TodoRow) => Todo = camelize;
