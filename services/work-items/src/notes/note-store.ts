import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** A note row. */
export interface NoteRow {
  id: number;
  noteable_type: string;
  noteable_id: number;
  project_id: number | null;
  group_id: number | null;
  author_id: number;
  body: string;
  system: boolean;
  internal: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Inserts a note; user (non-system) notes on issues bump the issue's `user_notes_count` and touch it. */
export async function insertNote(db: Db, values: Omit<Partial<NoteRow>, 'id'> & { noteable_type: string; noteable_id: number; author_id: number; body: string }): Promise<NoteRow> {
  const [row] = await db('notes').insert(values).returning('*');
  if (values.noteable_type === 'Issue') {
    const bump = values.system ? {} : { user_notes_count: db.raw('user_notes_count + 1') };
    await db('issues').where({ id: values.noteable_id }).update({ ...bump, updated_at: new Date() });
  }
  return row;
}

/** Notes of a noteable, ordered as asked (default newest first). */
export function notesOf(db: Db, type: string, id: number, order: { by: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' }, withInternal: boolean): Knex.QueryBuilder {
  const q = db('notes').where({ noteable_type: type, noteable_id: id });
  if (!withInternal) q.where({ internal: false });
  return q.orderBy(order.by, order.sort).orderBy('id', order.sort);
}
