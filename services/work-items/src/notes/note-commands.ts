import type { Knex } from 'knex';
import { emitNoteEvent, NoteEvents } from '../events/note-events';
import type { Issue } from '../issues/issue-row';
import type { Noteable, NoteParent } from './noteables';
import { canPromote, promoteIssue, promoteMessage } from './promote';
import { extractQuickActions } from './quick-actions';

/** What the quick actions of a note body did (GitLab's `Notes::QuickActionsStatus` and `commands_changes`). */
export interface CommandsOutcome {
  /** The body to keep: without the command lines when commands ran, else as given. */
  text: string;
  /** Commands ran and no other text is left: nothing is saved. */
  commandsOnly: boolean;
  /** `commands_changes` of the Note entity. */
  changes: Record<string, unknown>;
  /** Execution messages (the `summary` of `NoteCommands`). */
  messages: string[];
}

/**
 * Runs the quick actions of `body` on `noteable` in the caller's transaction: the one step note
 * creation and note update share. Today `/promote` on issues; other noteables keep their text.
 */
export async function applyQuickActions(trx: Knex.Transaction, parent: NoteParent, noteable: Noteable, body: string, actorId: number): Promise<CommandsOutcome> {
  const none: CommandsOutcome = { text: body, commandsOnly: false, changes: {}, messages: [] };
  if (noteable.type !== 'Issue' || !parent.project) return none;
  const issue = noteable.record as Issue;
  const { commands, text } = extractQuickActions(body, new Set(canPromote(parent.project, issue) ? ['promote'] : []));
  if (!commands.length) return none;
  const outcome: CommandsOutcome = { text, commandsOnly: !text, changes: {}, messages: [] };
  if (commands.includes('promote')) {
    const { note } = await promoteIssue(trx, parent.project, issue, actorId);
    await emitNoteEvent(trx, NoteEvents.created, note, noteable, actorId);
    outcome.changes.promote_to_epic = true;
    outcome.messages.push(promoteMessage(issue));
  }
  return outcome;
}
