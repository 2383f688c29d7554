import type { Knex } from 'knex';
import { BadRequestError, ForbiddenError, HttpError, ParamError } from '@anvil/http';
import { emitNoteEvent, NoteEvents } from '../events/note-events';
import { applyQuickActions, CommandsOutcome } from './note-commands';
import { canAdminNote, canCreateNote, canReadInternalNotes, canSetCreatedAt } from './note-policy';
import { deleteNote, insertNote, Note, updateNoteBody, userNoteCount } from './note-store';
import type { Noteable, NoteableKind, NoteParent } from './noteables';
import type { Issue } from '../issues/issue-row';
import { writeMentionNotes } from './system-notes';

/** GitLab's note body limit (`Gitlab::Database::MAX_TEXT_SIZE_LIMIT`). */
export const MAX_NOTE_BODY = 1_000_000;

/** GitLab's `Noteable::MAX_NOTES_LIMIT`: comments one noteable may hold. */
export const MAX_NOTES_PER_NOTEABLE = 5_000;

/** What a create or update did: the note (none when the body held only commands) and the command results. */
export interface NoteResult {
  note: Note | null;
  commandsChanges: Record<string, unknown>;
  /** `NoteCommands.summary`: the execution messages joined into one string, when there are any. */
  summary: string[];
}

/** What a client gives to comment: the body, whether it is internal, and a back-dating time (owners only). */
export interface NoteInput {
  body: string;
  internal: boolean;
  createdAt?: Date;
}

/** What a client gives to edit a comment; `confidential` may only repeat the note's flag. */
export interface NoteEdit {
  body?: string;
  confidential?: boolean;
}

/** GitLab's `bad_request!("Note #{note.errors.messages}")`, with Ruby's Hash#inspect. */
export function noteInvalid(field: string, message: string): BadRequestError {
  return new BadRequestError(`Note {:${field}=>[${JSON.stringify(message)}]}`);
}

function validateBody(body: string): void {
  // Ruby counts characters; a JS length above the limit may still be within it in code points
  if (body.length > MAX_NOTE_BODY && [...body].length > MAX_NOTE_BODY) throw noteInvalid('note', `is too long (maximum is ${MAX_NOTE_BODY} characters)`);
  if (!body.trim()) throw noteInvalid('note', "can't be blank");
}

function resultOf(note: Note | null, outcome: CommandsOutcome): NoteResult {
  return { note, commandsChanges: outcome.changes, summary: outcome.messages.length ? [outcome.messages.join(' ')] : [] };
}

/**
 * Creates a comment (GitLab's `Notes::CreateService`): `create_note` else 403; `internal` kept
 * only for Reporters and up; `created_at` only for Owners and administrators (then also
 * `updated_at`); quick actions run first, and a body of only commands saves no note. A noteable
 * holds at most `MAX_NOTES_PER_NOTEABLE` comments.
 */
export async function createNote(db: Knex, parent: NoteParent, kind: NoteableKind, noteable: Noteable, input: NoteInput): Promise<NoteResult> {
  const actor = parent.viewer.user;
  if (!actor || !canCreateNote(parent, noteable)) throw new ForbiddenError();
  const internal = input.internal && canReadInternalNotes(parent);
  if (internal && !kind.internalNotes) throw noteInvalid('confidential', 'can not be set for this resource');
  const createdAt = input.createdAt && canSetCreatedAt(parent) ? input.createdAt : undefined;
  validateBody(input.body);
  if (createdAt && createdAt.getTime() < 0) throw noteInvalid('created_at', 'The created date provided is too far in the past.');
  const outcome = await db.transaction(async (trx) => {
    const save = async (text: string): Promise<Note> => {
      if ((await userNoteCount(trx, noteable.type, noteable.id)) >= MAX_NOTES_PER_NOTEABLE) throw noteInvalid('base', 'Maximum number of comments exceeded');
      const note = await insertNote(trx, {
        noteableType: noteable.type, noteableId: noteable.id, projectId: noteable.projectId, groupId: noteable.groupId,
        authorId: actor.id, body: text, internal, createdAt,
      });
      await emitNoteEvent(trx, NoteEvents.created, note, noteable, actor.id);
      if (noteable.type === 'Issue') await writeMentionNotes(trx, noteable.record as Issue, text, actor.id);
      return note;
    };
    return applyQuickActions(trx, parent, noteable, input.body, actor, save);
  });
  // what was saved and applied stays committed, as GitLab's note is saved before its commands fail
  if (outcome.validationError) throw noteInvalid('validation', outcome.validationError);
  if (outcome.commandsOnly && outcome.errors.length) throw new BadRequestError(outcome.errors.join(', '));
  return resultOf(outcome.note, outcome);
}

/**
 * Edits a comment (GitLab's `Notes::UpdateService`): `admin_note` else 403; a changed
 * `confidential` is 400; a new body runs quick actions, and a body of only commands deletes the
 * note (202, or 400 `Commands did not apply` when none said anything). Nothing to change: the note as it is.
 */
export async function updateNote(db: Knex, parent: NoteParent, noteable: Noteable, note: Note, edit: NoteEdit): Promise<NoteResult> {
  const actor = parent.viewer.user;
  if (!actor || !canAdminNote(parent, noteable, note)) throw new ForbiddenError();
  if (edit.body !== undefined && !edit.body.trim()) throw new ParamError('body is empty');
  if (edit.confidential !== undefined && edit.confidential !== note.internal) throw noteInvalid('confidential', 'can not be changed for existing notes');
  if (edit.body === undefined) return { note, commandsChanges: {}, summary: [] };
  validateBody(edit.body);
  const body = edit.body;
  return db.transaction(async (trx) => {
    const outcome = await applyQuickActions(trx, parent, noteable, body, actor);
    if (outcome.commandsOnly) {
      if (!outcome.messages.length) throw new BadRequestError('Commands did not apply');
      await removeNote(trx, noteable, note, actor.id);
      return resultOf(null, outcome);
    }
    const saved = outcome.text === note.body ? note : await updateNoteBody(trx, note.id, outcome.text, actor.id);
    if (saved !== note) await emitNoteEvent(trx, NoteEvents.updated, saved, noteable, actor.id);
    return resultOf(saved, outcome);
  });
}

async function removeNote(trx: Knex.Transaction, noteable: Noteable, note: Note, actorId: number): Promise<void> {
  if (await deleteNote(trx, note)) await emitNoteEvent(trx, NoteEvents.deleted, note, noteable, actorId);
}

/**
 * Deletes a comment (GitLab's `Notes::DestroyService` under `destroy_conditionally!`): `admin_note`
 * else 403; a note changed after `unmodifiedSince` (compared in whole seconds, as HTTP dates are) is
 * `412 Precondition Failed`.
 */
export async function destroyNote(db: Knex, parent: NoteParent, noteable: Noteable, note: Note, unmodifiedSince?: Date): Promise<void> {
  const actor = parent.viewer.user;
  if (!actor || !canAdminNote(parent, noteable, note)) throw new ForbiddenError();
  if (unmodifiedSince && Math.floor(note.updatedAt.getTime() / 1000) > Math.floor(unmodifiedSince.getTime() / 1000)) {
    throw new HttpError(412, { message: '412 Precondition Failed' });
  }
  await db.transaction((trx) => removeNote(trx, noteable, note, actor.id));
}
