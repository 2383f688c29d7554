import { AccessLevel } from '@anvil/auth';
import type { Note } from './note-store';
import type { Noteable, NoteParent } from './noteables';

/** GitLab's `can_read_internal_note` / `mark_note_as_internal`: Reporter and up, or an administrator. */
export function canReadInternalNotes(parent: NoteParent): boolean {
  return parent.viewer.admin || parent.level >= AccessLevel.REPORTER;
}

/** `read_note` on one note of a readable noteable: internal notes need `canReadInternalNotes`. */
export function canReadNote(parent: NoteParent, note: Note): boolean {
  return !note.internal || canReadInternalNotes(parent);
}

/** Locked discussions take comments and edits from members only (`IssuablePolicy` locked rule). */
function lockedOut(parent: NoteParent, noteable: Noteable): boolean {
  return noteable.discussionLocked && !parent.viewer.admin && parent.level < AccessLevel.GUEST;
}

/** `create_note` on a readable noteable: a signed-in caller, not on an archived project, not locked out. */
export function canCreateNote(parent: NoteParent, noteable: Noteable): boolean {
  return !!parent.viewer.user && !parent.archived && !lockedOut(parent, noteable);
}

/**
 * `admin_note` (edit, delete): never system notes; the author, Maintainers and up, or an
 * administrator, provided they may read the note and are not locked out.
 */
export function canAdminNote(parent: NoteParent, noteable: Noteable, note: Note): boolean {
  const uid = parent.viewer.user?.id;
  if (!uid || note.system || parent.archived || !canReadNote(parent, note) || lockedOut(parent, noteable)) return false;
  return note.authorId === uid || parent.level >= AccessLevel.MAINTAINER || parent.viewer.admin;
}

/** `set_note_created_at`: administrators and Owners of the project or group. */
export function canSetCreatedAt(parent: NoteParent): boolean {
  return parent.viewer.admin || parent.level >= AccessLevel.OWNER;
}
