import type { Knex } from 'knex';
import { emit, NoteEvents, type NoteEventV1 } from '@anvil/events';
import { timestamps } from '../entities/timestamps';
import type { Note } from '../notes/note-store';
import type { Noteable } from '../notes/noteables';
import { PRODUCER } from './issue-events';

export { NoteEvents, type NoteEventV1 } from '@anvil/events';

/** Writes a note event (`work-items.note.created|updated|deleted`) to the outbox in the caller's transaction. */
export async function emitNoteEvent(trx: Knex | Knex.Transaction, type: (typeof NoteEvents)[keyof typeof NoteEvents], note: Note, noteable: Pick<Noteable, 'iid'>, actorId: number): Promise<void> {
  const data: NoteEventV1 = {
    id: note.id,
    noteable_type: note.noteableType,
    noteable_id: note.noteableId,
    noteable_iid: noteable.iid,
    project_id: note.projectId,
    group_id: note.groupId,
    author_id: note.authorId,
    body: note.body,
    system: note.system,
    internal: note.internal,
    ...timestamps(note),
    actor_id: actorId,
  };
  await emit(trx, PRODUCER, type, data);
}
