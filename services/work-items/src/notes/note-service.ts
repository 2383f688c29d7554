import type { Knex } from 'knex';
import { AccessLevel } from '@anvil/auth';
import { BadRequestError, ForbiddenError, ValidationError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import type { Issue } from '../issues/issue-row';
import { isOwner } from '../issues/policy';
import { runIssueQuickActions } from '../quick-actions/issue-quick-actions';
import { insertNote, Note } from './note-store';
import { writeMentionNotes } from './system-notes';

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
 * Creates a comment on an issue, running its quick actions (`runIssueQuickActions`): a body of
 * only commands persists no note; one whose commands failed is GitLab's 400 with their errors,
 * and changes the issue rejected are GitLab's 400 `Note {:validation=>[…]}` — both after what
 * was saved and applied is committed. Issues the note mentions get `mentioned in`
 * system notes. Locked discussions take comments from Reporters and up only.
 */
export async function createIssueNote(db: Knex, pc: ProjectContext, issue: Issue, input: NoteInput): Promise<NoteResult> {
  const actor = pc.viewer.user;
  if (!actor) throw new ForbiddenError();
  if (input.body.length > MAX_NOTE_BODY) throw new ValidationError({ note: [`is too long (maximum is ${MAX_NOTE_BODY} characters)`] });
  if (!input.body.trim()) throw new ValidationError({ note: ["can't be blank"] });
  if (issue.discussionLocked && pc.level < AccessLevel.REPORTER) throw new ForbiddenError();
  const run = await db.transaction((trx) => runIssueQuickActions(trx, {
    issue, actor, access: pc, body: input.body,
    saveNote: async (text) => {
      const note = await insertNote(trx, {
        noteableType: 'Issue', noteableId: issue.id, projectId: issue.projectId, authorId: actor.id, body: text,
        internal: input.internal, createdAt: input.createdAt && isOwner(pc) ? input.createdAt : undefined,
      });
      await writeMentionNotes(trx, issue, text, actor.id);
      return note;
    },
  }));
  if (run.validationError) throw new BadRequestError(`Note {:validation=>[${JSON.stringify(run.validationError)}]}`);
  if (run.commandsOnly && run.errors.length) throw new BadRequestError(run.errors.join(', '));
  return { note: run.note, commandsChanges: run.changes, summary: run.messages };
}
