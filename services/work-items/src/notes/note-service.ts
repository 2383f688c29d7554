import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { ForbiddenError, ValidationError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import type { Issue } from '../issues/issue-row';
import { isOwner } from '../issues/policy';
import { extractQuickActions } from './quick-actions';
import { emitNoteEvent, NoteEvents } from '../events/work-item-events';
import { insertNote, Note } from './note-store';
import { canPromote, promoteIssue, promoteMessage } from './promote';

/** GitLab's note body limit. */
export const MAX_NOTE_BODY = 1_000_000;

/** What creating a note did: the persisted note (none when the body held only commands) and the command results. */
export interface NoteResult {
  note: Note | null;
  commandsChanges: Record<string, unknown>;
  summary: string[];
}

/** What a client gives to comment: the body, whether it is internal, and a back-dating time (owners only). */
export interface NoteInput {
  body: string;
  internal: boolean;
  createdAt?: Date;
}

/**
 * Creates a comment on an issue, running its quick actions first (today: `/promote`, which
 * promotes the issue to an epic when available; otherwise the line stays text). A body of only
 * commands persists no note; a persisted one is announced as `work-items.note.created`. Locked discussions take comments from Reporters and up only.
 */
export async function createIssueNote(db: Knex, pc: ProjectContext, issue: Issue, input: NoteInput): Promise<NoteResult> {
  const actor = pc.viewer.user;
  if (!actor) throw new ForbiddenError();
  if (input.body.length > MAX_NOTE_BODY) throw new ValidationError({ note: [`is too long (maximum is ${MAX_NOTE_BODY} characters)`] });
  if (!input.body.trim()) throw new ValidationError({ note: ["can't be blank"] });
  if (issue.discussionLocked && pc.level < AccessLevel.REPORTER) throw new ForbiddenError();
  const available = new Set(canPromote(pc, issue) ? ['promote'] : []);
  const { commands, text } = extractQuickActions(input.body, available);
  return db.transaction(async (trx) => {
    const result: NoteResult = { note: null, commandsChanges: {}, summary: [] };
    if (commands.includes('promote')) {
      await promoteIssue(trx, pc, issue, actor.id);
      result.commandsChanges.promote_to_epic = true;
      result.summary.push(promoteMessage(issue));
    }
    if (text || !commands.length) {
      result.note = await insertNote(trx, {
        noteableType: 'Issue', noteableId: issue.id, projectId: issue.projectId, authorId: actor.id, body: commands.length ? text : input.body,
        internal: input.internal, createdAt: input.createdAt && isOwner(pc) ? input.createdAt : undefined,
      });
      await emitNoteEvent(trx, NoteEvents.created, result.note, issue.iid, actor.id);
    }
    return result;
  });
}
