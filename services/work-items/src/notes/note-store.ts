import type { Knex } from 'knex';
import { camelize, Camelized, RowTimestamps } from '../db/rows';

type Db = Knex | Knex.Transaction;

/** A `notes` row. */
export interface NoteRow extends RowTimestamps {
  id: number;
  noteable_type: string;
  noteable_id: number;
  project_id: number | null;
  group_id: number | null;
  author_id: number;
  body: string;
  system: boolean;
  internal: boolean;
}

/** A comment (or system note) on a noteable: today an issue. */
export type Note = Camelized<NoteRow>;

/** What a new note is made of; `createdAt` back-dates it (and its `updatedAt`). */
export interface NewNote {
  noteableType: string;
  noteableId: number;
  projectId: number | null;
  authorId: number;
  body: string;
  system?: boolean;
  internal?: boolean;
  createdAt?: Date;
}

/** The domain note of a row. */
export const noteFromRow: (r: NoteRow) => Note = camelize;

function columns(n: NewNote): Record<string, unknown> {
  const at = n.createdAt ? { created_at: n.createdAt, updated_at: n.createdAt } : {};
  const flags = { ...(n.system !== undefined ? { system: n.system } : {}), ...(n.internal !== undefined ? { internal: n.internal } : {}) };
  return { noteable_type: n.noteableType, noteable_id: n.noteableId, project_id: n.projectId, author_id: n.authorId, body: n.body, ...flags, ...at };
}

/** Inserts a note; user (non-system) notes on issues bump the issue's `user_notes_count` and touch it. */
export async function insertNote(db: Db, n: NewNote): Promise<Note> {
  const [row] = await db('notes').insert(columns(n)).returning('*');
  if (n.noteableType === 'Issue') {
    const bump = n.system ? {} : { user_notes_count: db.raw('user_notes_count + 1') };
    await db('issues').where({ id: n.noteableId }).update({ ...bump, updated_at: new Date() });
  }
  return noteFromRow(row);
}

/** Notes of a noteable (`NoteRow`s, for pagination), ordered as asked (default newest first). */
export function notesOf(db: Db, type: string, id: number, order: { by: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' }, withInternal: boolean): Knex.QueryBuilder {
  const q = db('notes').where({ noteable_type: type, noteable_id: id });
  if (!withInternal) q.where({ internal: false });
  return q.orderBy(order.by, order.sort).orderBy('id', order.sort);
}
