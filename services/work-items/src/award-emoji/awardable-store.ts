import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** What awarding needs of a project snippet. */
export interface Snippet {
  id: number;
  projectId: number;
  authorId: number;
  visibility: 'private' | 'internal' | 'public';
}

/** What awarding needs of a note. */
export interface AwardableNote {
  id: number;
  system: boolean;
  internal: boolean;
}

/** GitLab's `visibility_level` integers (`Gitlab::VisibilityLevel`). */
const VISIBILITY: Record<string, Snippet['visibility']> = { 0: 'private', 10: 'internal', 20: 'public', private: 'private', internal: 'internal', public: 'public' };

const snippetTables = new WeakMap<object, Promise<boolean>>();

/** Whether this schema has a `snippets` table, asked once per database handle. */
function hasSnippets(db: Db): Promise<boolean> {
  const key = (db as { client: object }).client;
  let known = snippetTables.get(key);
  if (!known) {
    known = db.raw("SELECT to_regclass('snippets') IS NOT NULL AS present").then((r: { rows: { present: boolean }[] }) => r.rows[0].present);
    snippetTables.set(key, known);
  }
  return known;
}

/** A snippet of the project by id; none when it does not exist (or snippets are not stored here). */
export async function findSnippet(db: Db, projectId: number, snippetId: number): Promise<Snippet | undefined> {
  if (!(await hasSnippets(db))) return undefined;
  const row: { id: number; project_id: number; author_id: number; visibility_level: number | string } | undefined = await db('snippets')
    .select('id', 'project_id', 'author_id', 'visibility_level').where({ id: snippetId, project_id: projectId }).first();
  if (!row) return undefined;
  return { id: row.id, projectId: row.project_id, authorId: row.author_id, visibility: VISIBILITY[String(row.visibility_level)] ?? 'private' };
}

/** The note `noteId` when it belongs to the noteable `(type, id)`. */
export async function findAwardableNote(db: Db, noteableType: string, noteableId: number, noteId: number): Promise<AwardableNote | undefined> {
  const row: AwardableNote | undefined = await db('notes').select('id', 'system', 'internal')
    .where({ id: noteId, noteable_type: noteableType, noteable_id: noteableId }).first();
  return row && { id: row.id, system: row.system, internal: row.internal };
}
