import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** What awarding needs of a note. */
export interface AwardableNote {
  id: number;
  system: boolean;
  internal: boolean;
}

/** The note `noteId` when it belongs to the noteable `(type, id)`. */
export async function findAwardableNote(db: Db, noteableType: string, noteableId: number, noteId: number): Promise<AwardableNote | undefined> {
  const row: AwardableNote | undefined = await db('notes').select('id', 'system', 'internal')
    .where({ id: noteId, noteable_type: noteableType, noteable_id: noteableId }).first();
  return row && { id: row.id, system: row.system, internal: row.internal };
}
