import type { Knex } from 'knex';
import { camelize, Camelized, RowTimestamps } from '../db/rows';

type Db = Knex | Knex.Transaction;

/** GitLab's visibility names by level (`Gitlab::VisibilityLevel`). */
export const VISIBILITY_LEVELS = { private: 0, internal: 10, public: 20 } as const;

/** A snippet's visibility, as the API names it. */
export type SnippetVisibility = keyof typeof VISIBILITY_LEVELS;

/** The visibility names, in GitLab's order (what the `visibility` parameter accepts). */
export const SNIPPET_VISIBILITIES = Object.keys(VISIBILITY_LEVELS) as SnippetVisibility[];

/** A `snippets` row. */
export interface SnippetRow extends RowTimestamps {
  id: number;
  project_id: number;
  author_id: number;
  title: string;
  description: string | null;
  /** The first file's path. */
  file_name: string | null;
  /** The first file's content. */
  content: string;
  visibility_level: number;
  /** The creating request's User-Agent and client address (GitLab's user agent detail). */
  user_agent: string | null;
  ip_address: string | null;
}

/** A project snippet (without its files). */
export type Snippet = Omit<Camelized<SnippetRow>, 'visibilityLevel'> & { visibility: SnippetVisibility };

/** One file of a snippet, as the snippet holds it. */
export interface SnippetFile {
  path: string;
  content: string;
}

/** The columns a snippet is written with. */
export type SnippetColumns = Partial<Omit<SnippetRow, 'id' | 'visibility_level'>> & { visibility?: SnippetVisibility };

/** The visibility name of a level (unknown levels read as private). */
export function visibilityOf(level: number): SnippetVisibility {
  return SNIPPET_VISIBILITIES.find((v) => VISIBILITY_LEVELS[v] === level) ?? 'private';
}

/** The domain snippet of a row. */
export function snippetFromRow(row: SnippetRow): Snippet {
  const { visibilityLevel, ...rest } = camelize(row);
  return { ...rest, visibility: visibilityOf(visibilityLevel) };
}

function toRow(columns: SnippetColumns): Partial<SnippetRow> {
  const { visibility, ...rest } = columns;
  return visibility ? { ...rest, visibility_level: VISIBILITY_LEVELS[visibility] } : rest;
}

/** One snippet of a project by id, whoever may see it. */
export async function findSnippet(db: Db, projectId: number, id: number): Promise<Snippet | undefined> {
  const row: SnippetRow | undefined = await db('snippets').where({ project_id: projectId, id }).first();
  return row && snippetFromRow(row);
}

/** The files of a snippet, in order. */
export async function snippetFiles(db: Db, snippetId: number): Promise<SnippetFile[]> {
  return db('snippet_files').select('path', 'content').where({ snippet_id: snippetId }).orderBy('position');
}

/** The file paths of several snippets, in order, by snippet id. */
export async function snippetFilePaths(db: Db, snippetIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(snippetIds.map((id) => [id, []]));
  if (!snippetIds.length) return out;
  const rows: { snippet_id: number; path: string }[] = await db('snippet_files').select('snippet_id', 'path').whereIn('snippet_id', snippetIds).orderBy(['snippet_id', 'position']);
  for (const r of rows) out.get(r.snippet_id)?.push(r.path);
  return out;
}

/** Inserts a snippet and returns it. */
export async function insertSnippet(db: Db, columns: SnippetColumns): Promise<Snippet> {
  const [row] = await db('snippets').insert(toRow(columns)).returning('*');
  return snippetFromRow(row);
}

/** Updates a snippet's columns and returns it as it now is. */
export async function updateSnippetRow(db: Db, id: number, columns: SnippetColumns): Promise<Snippet> {
  const [row] = await db('snippets').where({ id }).update(toRow(columns)).returning('*');
  return snippetFromRow(row);
}

/** Replaces a snippet's files with `files`, in their order. */
export async function replaceSnippetFiles(db: Db, snippetId: number, files: SnippetFile[]): Promise<void> {
  await db('snippet_files').where({ snippet_id: snippetId }).delete();
  if (files.length) await db('snippet_files').insert(files.map((f, position) => ({ snippet_id: snippetId, path: f.path, content: f.content, position })));
}

/** Deletes a snippet and its files. */
export async function deleteSnippetRow(db: Db, id: number): Promise<void> {
  await db('snippets').where({ id }).delete();
}

/** Deletes every snippet of a project (a deleted project takes them along). */
export async function deleteProjectSnippets(db: Db, projectId: number): Promise<void> {
  await db('snippets').where({ project_id: projectId }).delete();
}
