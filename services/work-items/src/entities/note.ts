import type { NoteRow } from '../notes/note-store';
import type { UserRow } from '../read-model/store';
import { toUserBasic } from './user';

/** GitLab's `Note` entity (`noteable_iid` for issues and merge requests). */
export function toNote(n: NoteRow, author: UserRow | undefined, noteableIid: number | null, commandsChanges: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: n.id,
    type: null,
    body: n.body,
    attachment: null,
    author: toUserBasic(author),
    created_at: new Date(n.created_at).toISOString(),
    updated_at: new Date(n.updated_at).toISOString(),
    system: n.system,
    noteable_id: n.noteable_id,
    noteable_type: n.noteable_type,
    project_id: n.project_id,
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
