/**
 * Quick actions in an issue note, end to end (GitLab's `Notes::QuickActionsService` and
 * `Notes::CreateService#execute_quick_actions`/`#do_commands`): extract the commands, interpret
 * them against the issue as it is, save what text remains, then apply the changes in the same
 * transaction.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/services/notes/create_service.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/services/notes/quick_actions_service.rb
 */
import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import type { ProjectContext } from '../access/project-context';
import type { Issue } from '../issues/issue-row';
import { tryApplyIssueChanges } from './apply-issue-changes';
import { extractIssueCommands, interpretCommands, joinMessages, type CommandsChanges } from './commands';
import { buildCommandContext } from './issue-command-context';

/** Who writes what on which issue; `saveNote` persists the text left after the commands. */
export interface IssueQuickActionInput<T extends { id: number }> {
  issue: Issue;
  actor: Actor;
  /** The project and the caller's level on it (permissions U/M/A). */
  access: ProjectContext;
  body: string;
  now?: Date;
  /** Called once, only when text remains, before the changes apply (GitLab saves the note first). */
  saveNote?: (text: string) => Promise<T>;
}

/** What the commands did. */
export interface IssueQuickActionResult<T> {
  /** The body without command lines (the body itself when it held no command). */
  text: string;
  /** The body held commands and nothing else: no note is saved. */
  commandsOnly: boolean;
  /** `commands_changes` (`spend_time.note_id` is the saved note's id, or null). */
  changes: CommandsChanges;
  /** GitLab's `summary`: one string of all execution messages, or none when they are blank. */
  messages: string[];
  /** Parse errors, the update's failure, and `Failed to apply commands.` for a commands-only body with no message. */
  errors: string[];
  /** Why the issue rejected the changes (none of them applied; the note is still saved), or null. */
  validationError: string | null;
  /** What `saveNote` returned, when it was called. */
  note: T | null;
  /** The issue after the changes. */
  issue: Issue;
}

/**
 * Runs the quick actions of `body` on `issue` for `actor` inside `trx`. Commands the caller may
 * not run change nothing and report `Could not apply <name> command.`; a body without commands
 * is only saved.
 */
export async function runIssueQuickActions<T extends { id: number }>(
  trx: Knex.Transaction, input: IssueQuickActionInput<T>,
): Promise<IssueQuickActionResult<T>> {
  const { issue, actor, access, body } = input;
  const extraction = extractIssueCommands(body);
  const result: IssueQuickActionResult<T> = { text: body, commandsOnly: false, changes: {}, messages: [], errors: [], validationError: null, note: null, issue };
  if (!extraction.commands.length) {
    result.note = input.saveNote ? await input.saveNote(body) : null;
    return result;
  }
  const ctx = await buildCommandContext(trx, access, issue, actor, extraction.commands, input.now ?? new Date());
  const run = interpretCommands(extraction.commands, ctx);
  const message = joinMessages(run.messages);
  Object.assign(result, {
    text: extraction.text, commandsOnly: extraction.text.trim() === '', messages: message ? [message] : [], errors: [...run.errors],
  });
  if (!result.commandsOnly && input.saveNote) result.note = await input.saveNote(extraction.text);
  if (!run.executed) return result;
  const spend = run.changes.spend_time as Record<string, unknown> | undefined;
  if (spend) spend.note_id = result.note?.id ?? null;
  if (Object.keys(run.changes).length) {
    const applied = await tryApplyIssueChanges(trx, access, issue, actor, run.changes);
    Object.assign(result, { issue: applied.issue, changes: run.changes, validationError: applied.error });
    if (applied.error) result.errors.push(applied.error);
  }
  if (result.commandsOnly && !message) result.errors.push('Failed to apply commands.');
  return result;
}
