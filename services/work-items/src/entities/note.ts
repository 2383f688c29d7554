import type { Note } from '../notes/note-store';
import type { UserRow } from '../read-model/store';
import { timestamps } from './timestamps';
import { toUserBasic } from './user';

/** GitLab's `Note` entity; `noteableIid` is the or merge request's iid, null for other noteables. */
export function toNote(n: Note, author: UserRow | undefined, noteableIid: number | null, commandsChanges: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: n.id,
    type: null,
    body: n.body,
    attachment: null,
    author: toUserBasic(author),
    ...timestamps(n),
    system: n.system,
    noteable_id: n.noteableId,
    noteable_type: n.noteableType,
    project_id: n.projectId,
    resolvable: false,
    confidential: n.internal,
    internal: n.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: noteableIid,
    commands_changes: commandsChanges,
  };
}

/** GitLab's `NoteCommands` (a body of only quick actions: nothing persisted). */
export function toNoteCommands(commandsChanges: Record<string, unknown>, summary: string[]): Record<string, unknown> {
  return { commands_changes: commandsChanges, summary };
}
