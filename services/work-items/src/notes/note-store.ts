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
  updated_by_id: number | null;
  last_edited_at: Date | null;
}

/** A comment (or system note) on a noteable. */
export type Note = Camelized<NoteRow>;

/** What a new note is made of; `createdAt` back-dates it (and its `updatedAt`). */
export interface NewNote {
  noteableType: string;
  noteableId: number;
  projectId: number | null;
  groupId?: number | null;
  authorId: number;
  body: string;
  system?: boolean;
  internal?: boolean;
  createdAt?: Date;
}

/** Noteables whose row keeps a `user_notes_count`, by noteable type. */
const COUNTED: Record<string, string> = { Issue: 'issues', MergeRequest: 'merge_requests' };

/** The domain note of a row. */
export const noteFromRow: (r: NoteRow) => Note = camelize;

function columns(n: NewNote): Record<string, unknown> {
  const at = n.createdAt ? { created_at: n.createdAt, updated_at: n.createdAt } : {};
  const flags = { ...(n.system !== undefined ? { system: n.system } : {}), ...(n.internal !== undefined ? { internal: n.internal } : {}) };
  return { noteable_type: n.noteableType, noteable_id: n.noteableId, project_id: n.projectId, group_id: n.groupId ?? null, author_id: n.authorId, body: n.body, ...flags, ...at };
}

/**
 * Moves the noteable's `user_notes_count` by `delta` in SQL (never read-modify-write, so
 * concurrent comments count right) and touches it, as a new or removed comment does.
 */
async function countUserNote(db: Db, type: string, noteableId: number, delta: number): Promise<void> {
  const table = COUNTED[type];
  if (!table) return;
  await db(table).where({ id: noteableId }).update({ user_notes_count: db.raw('user_notes_count + ?', [delta]), updated_at: new Date() });
}

/** Inserts a note; a user (non-system) note on an issue or merge request counts in its `user_notes_count`. */
export async function insertNote(db: Db, n: NewNote): Promise<Note> {
  const [row] = await db('notes').insert(columns(n)).returning('*');
  if (!n.system) await countUserNote(db, n.noteableType, n.noteableId, 1);
  return noteFromRow(row);
}

/** How many user (non-system) notes a noteable has. */
export async function userNoteCount(db: Db, type: string, noteableId: number): Promise<number> {
  const [{ n }] = await db('notes').where({ noteable_type: type, noteable_id: noteableId, system: false }).count({ n: '*' });
  return Number(n);
}

/** One note of a noteable by id. */
export async function findNoteOf(db: Db, type: string, noteableId: number, noteId: number): Promise<Note | undefined> {
  const row: NoteRow | undefined = await db('notes').where({ id: noteId, noteable_type: type, noteable_id: noteableId }).first();
  return row && noteFromRow(row);
}

/** Writes a new body, recording who edited it and when; returns the updated note. */
export async function updateNoteBody(db: Db, id: number, body: string, editorId: number): Promise<Note> {
  const now = new Date();
  const [row] = await db('notes').where({ id }).update({ body, updated_by_id: editorId, last_edited_at: now, updated_at: now }).returning('*');
  return noteFromRow(row);
}

/** Deletes a note; a user note leaves its noteable's `user_notes_count`. False when it was already gone. */
export async function deleteNote(db: Db, note: Note): Promise<boolean> {
  const removed = await db('notes').where({ id: note.id }).delete();
  if (removed && !note.system) await countUserNote(db, note.noteableType, note.noteableId, -1);
  return removed > 0;
}
