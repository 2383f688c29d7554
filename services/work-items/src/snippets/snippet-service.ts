import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { ForbiddenError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import { emitSnippetEvent, SnippetEvents, snippetPayload } from '../events/snippet-events';
import { assertWritable } from '../issues/policy';
import { SnippetServiceError, toSentence } from './snippet-errors';
import { applyFileActions, FileActionInput, validAction } from './snippet-files';
import {
  deleteSnippetRow, insertSnippet, replaceSnippetFiles, Snippet, SnippetColumns, SnippetFile, snippetFiles, SnippetVisibility, updateSnippetRow,
} from './snippet-store';

/** Longest `title` and `file_name` (`app/models/snippet.rb`). */
export const MAX_NAME_LENGTH = 255;

/** What creating a snippet takes: its files as `create` actions (a path may be blank: GitLab names it). */
export interface NewSnippet {
  title: string;
  description?: string | null;
  visibility: SnippetVisibility;
  files: { filePath: string | null; content: string }[];
  /** The creating request's User-Agent and client address, kept as GitLab's user agent detail. */
  userAgent?: string | null;
  ipAddress?: string | null;
}

/** What an edit may change; `content`/`fileName` edit a single-file snippet, `files` any snippet. */
export interface SnippetChanges {
  title?: string;
  description?: string | null;
  visibility?: SnippetVisibility;
  content?: string;
  fileName?: string;
  files?: FileActionInput[];
}

const MULTI_FILE_MESSAGE = 'To update Snippets with multiple files, you must use the `files` parameter';

/** `create_snippet`: Reporter and up (administrators count as Owner); archived projects refuse every write apart. */
export function canCreateSnippet(pc: ProjectContext): boolean {
  return !!pc.viewer.user && pc.level >= AccessLevel.REPORTER;
}

/** `update_snippet` and `admin_snippet`: the author, or Maintainer and up. */
export function canAdminSnippet(pc: ProjectContext, snippet: Snippet): boolean {
  const uid = pc.viewer.user?.id;
  return !!uid && (snippet.authorId === uid || pc.level >= AccessLevel.MAINTAINER);
}

/** Throws 403 unless the caller may edit and delete `snippet` (`canAdminSnippet`). */
export function assertCanAdminSnippet(pc: ProjectContext, snippet: Snippet): void {
  if (!canAdminSnippet(pc, snippet)) throw new ForbiddenError();
}

/** The model's validations on what is about to be saved: `Title`/`File name` at most 255 characters. */
function validate(title: string, fileName: string): void {
  const errors: string[] = [];
  if (title.length > MAX_NAME_LENGTH) errors.push(`Title is too long (maximum is ${MAX_NAME_LENGTH} characters)`);
  if (fileName.length > MAX_NAME_LENGTH) errors.push(`File name is too long (maximum is ${MAX_NAME_LENGTH} characters)`);
  if (errors.length) throw new SnippetServiceError(toSentence(errors));
}

/** `file_name` and `content` columns: those of the first file. */
function firstFileColumns(files: SnippetFile[]): SnippetColumns {
  return { file_name: files[0].path, content: files[0].content };
}

/**
 * Creates a snippet in the project by the caller (Reporter+, else 403) with its files, and announces
 * `work-items.snippet.created`. No file is the model's 400 `Content can't be blank`; files the
 * repository would refuse (a path twice, more than ten) are 400 `Repository Error creating the snippet`.
 */
export async function createSnippet(db: Knex, pc: ProjectContext, input: NewSnippet): Promise<Snippet> {
  assertWritable(pc);
  const actor = pc.viewer.user;
  if (!actor || !canCreateSnippet(pc)) throw new ForbiddenError();
  if (!input.files.length) throw new SnippetServiceError("Content can't be blank");
  const files = applyFileActions([], input.files.map((f) => ({ action: 'create', ...f })));
  validate(input.title, files?.[0].path ?? '');
  if (!files) throw new SnippetServiceError('Repository Error creating the snippet');
  return db.transaction(async (trx) => {
    const snippet = await insertSnippet(trx, {
      project_id: pc.id, author_id: actor.id, title: input.title, description: input.description ?? null, visibility: input.visibility, ...firstFileColumns(files),
      user_agent: input.userAgent ?? null, ip_address: input.ipAddress ?? null,
    });
    await replaceSnippetFiles(trx, snippet.id, files);
    await emitSnippetEvent(trx, SnippetEvents.created, snippetPayload(snippet, { files: files.map((f) => f.path), actorId: actor.id }));
    return snippet;
  });
}

/** The files after an edit, or the current ones when the edit does not touch them. */
function editedFiles(current: SnippetFile[], input: SnippetChanges): SnippetFile[] {
  if (input.files) {
    if (!input.files.every(validAction)) throw new SnippetServiceError('Snippet actions have invalid data', 422);
    const next = applyFileActions(current, input.files);
    if (!next) throw new SnippetServiceError('Repository Error updating the snippet');
    return next;
  }
  if (input.content === undefined && input.fileName === undefined) return current;
  const [first] = current;
  return [{ path: input.fileName || first.path, content: input.content ?? first.content }];
}

function changedAttributes(snippet: Snippet, input: SnippetChanges, filesChanged: boolean): string[] {
  const changes = (['title', 'description', 'visibility'] as const).filter((k) => input[k] !== undefined && input[k] !== snippet[k]);
  return filesChanged ? [...changes, 'files'] : changes;
}

/**
 * Edits a snippet (author or Maintainer+, else 403): attributes, the single file through
 * `content`/`file_name` (400 on a multi-file snippet), or any files through `files` actions.
 * Publishes `work-items.snippet.updated` with what changed; an edit that changes nothing saves nothing.
 */
export async function updateSnippet(db: Knex, pc: ProjectContext, snippet: Snippet, input: SnippetChanges): Promise<Snippet> {
  assertWritable(pc);
  assertCanAdminSnippet(pc, snippet);
  return db.transaction(async (trx) => {
    const current = await snippetFiles(trx, snippet.id);
    if ((input.content !== undefined || input.fileName !== undefined) && current.length > 1) throw new SnippetServiceError(MULTI_FILE_MESSAGE);
    const files = editedFiles(current, input);
    const filesChanged = JSON.stringify(files) !== JSON.stringify(current);
    validate(input.title ?? snippet.title, files[0].path);
    const changes = changedAttributes(snippet, input, filesChanged);
    if (!changes.length) return snippet;
    const columns: SnippetColumns = { ...firstFileColumns(files), updated_at: new Date() };
    for (const k of ['title', 'description', 'visibility'] as const) if (input[k] !== undefined) Object.assign(columns, { [k]: input[k] });
    const updated = await updateSnippetRow(trx, snippet.id, columns);
    if (filesChanged) await replaceSnippetFiles(trx, snippet.id, files);
    await emitSnippetEvent(trx, SnippetEvents.updated, snippetPayload(updated, { files: files.map((f) => f.path), actorId: pc.viewer.user?.id ?? null, changes }));
    return updated;
  });
}

/** Deletes a snippet and its files (author or Maintainer+, else 403) and announces `work-items.snippet.deleted`. */
export async function deleteSnippet(db: Knex, pc: ProjectContext, snippet: Snippet): Promise<void> {
  assertWritable(pc);
  assertCanAdminSnippet(pc, snippet);
  await db.transaction(async (trx) => {
    const files = await snippetFiles(trx, snippet.id);
    await deleteSnippetRow(trx, snippet.id);
    await emitSnippetEvent(trx, SnippetEvents.deleted, snippetPayload(snippet, { files: files.map((f) => f.path), actorId: pc.viewer.user?.id ?? null }));
  });
}
