import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import type { Issue } from '../issues/issue-row';
import { runIssueQuickActions } from '../quick-actions/issue-quick-actions';
import type { Note } from './note-store';
import type { Noteable, NoteParent } from './noteables';

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
  /** The note `save` wrote (when it was given and text was left). */
  note: Note | null;
  /** Errors of a body of only commands (GitLab's 400 joins them). */
  errors: string[];
  /** Changes the issue refused (GitLab's 400 `Note {:validation=>[…]}`; a mixed body's note is still saved). */
  validationError: string | null;
}

/**
 * Runs the quick actions of `body` on `noteable` in the caller's transaction: the one step note
 * creation and note update share. Issues run GitLab's issue commands (`runIssueQuickActions`),
 * calling `save` with the remaining text before the changes apply, as GitLab saves the note first;
 * other noteables keep their text as it is (GitLab runs no quick actions on snippet notes, and
 * those of merge requests and epics are not built here).
 */
export async function applyQuickActions(
  trx: Knex.Transaction, parent: NoteParent, noteable: Noteable, body: string, actor: Actor, save?: (text: string) => Promise<Note>,
): Promise<CommandsOutcome> {
  if (noteable.type !== 'Issue' || !parent.project) {
    return { text: body, commandsOnly: false, changes: {}, messages: [], note: save ? await save(body) : null, errors: [], validationError: null };
  }
  const run = await runIssueQuickActions(trx, { issue: noteable.record as Issue, actor, access: parent.project, body, saveNote: save });
  return { text: run.text, commandsOnly: run.commandsOnly, changes: run.changes, messages: run.messages, note: run.note, errors: run.errors, validationError: run.validationError };
}
