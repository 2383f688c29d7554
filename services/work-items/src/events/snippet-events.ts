import type { Knex } from 'knex';
import { emit, SnippetEvents, type SnippetEventV1 } from '@anvil/events';
import { timestamps } from '../entities/timestamps';
import type { Snippet } from '../snippets/snippet-store';
import { PRODUCER } from './issue-events';

export { SnippetEvents, type SnippetEventV1 } from '@anvil/events';

/** The event payload of a snippet with its file paths. */
export function snippetPayload(s: Snippet, extra: { files: string[]; actorId: number | null; changes?: string[] }): SnippetEventV1 {
  return {
    id: s.id,
    project_id: s.projectId,
    author_id: s.authorId,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    files: extra.files,
    ...timestamps(s),
    actor_id: extra.actorId,
    ...(extra.changes ? { changes: extra.changes } : {}),
  };
}

/** Writes a snippet event to the outbox in the caller's transaction. */
export async function emitSnippetEvent(trx: Knex.Transaction, type: (typeof SnippetEvents)[keyof typeof SnippetEvents], data: SnippetEventV1): Promise<void> {
  await emit(trx, PRODUCER, type, data);
}
