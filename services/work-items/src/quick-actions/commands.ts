/**
 * The issue quick actions as data: names, aliases, when each is available, what it changes
 * (`commands_changes`) and the message it reports. Pure: the issue's state, the caller's
 * permissions and synchronous look-ups of what the arguments name come in a `CommandContext`.
 *
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/issuable_actions.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/issue_actions.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/issue_and_merge_request_actions.rb
 * https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/command_definition.rb
 */
import { formatDuration } from '../time-tracking/duration';
import {
  parseAward, parseEstimate, parseLabels, parseMilestone, parseSpend, parseUsers, resolveUsers, toSentence, type QuickActionUser,
} from './arguments';
import { labelReference, type CommandContext, type CommandsChanges, type QuickActionLabel } from './context';
import { formatShortDate, parseDueDate } from './due-date';
import { SUBSTITUTIONS, extractCommands, type CommandName, type Extraction } from './extractor';

export { labelReference, milestoneReference } from './context';
export type { CommandContext, CommandsChanges, QuickActionLabel, QuickActionMilestone } from './context';

/** Execution state shared by the commands of one note (GitLab's `@updates`, `@execution_message`). */
export interface Run {
  ctx: CommandContext;
  updates: CommandsChanges;
  stored: Map<string, string>;
  errors: string[];
}

/** One command: names, `commands_changes` key(s), availability, action and message. */
export interface IssueCommand extends CommandName {
  changes: readonly string[];
  /** The action only runs without an argument when GitLab's block takes none (arity 0). */
  needsArg: boolean;
  /** The same for the message block (defaults to `needsArg`). */
  messageNeedsArg?: boolean;
  available(ctx: CommandContext): boolean;
  run(r: Run, arg: string | null): void;
  /** The message; null when GitLab's block gives nil, '' when the command has no message of its own. */
  message(r: Run, arg: string | null): string | null;
}

const plural = (word: string, n: number) => (n === 1 ? word : `${word}s`);
const refs = (labels: QuickActionLabel[]) => labels.map(labelReference).join(' ');
const userRefs = (users: readonly QuickActionUser[]) => toSentence(users.map((u) => `@${u.username}`));
const name = (r: Run) => r.ctx.targetName ?? 'issue';

function addIds(r: Run, key: string, ids: number[], initial: readonly number[] = []): void {
  const current = (r.updates[key] as number[] | undefined) ?? [...initial];
  r.updates[key] = [...new Set([...current, ...ids])];
}

/** Users named by `arg`, or null after recording GitLab's parse error. */
function users(r: Run, arg: string): QuickActionUser[] | null {
  const q = parseUsers(arg);
  const res = resolveUsers(q, r.ctx.findUsers(q.usernames), r.ctx.currentUser);
  if ('error' in res) {
    if (!r.errors.includes(res.error)) r.errors.push(res.error);
    return null;
  }
  return res.users;
}

const labels = (r: Run, arg: string | null) => r.ctx.findLabels(parseLabels(arg));
const M = (c: CommandContext) => c.can.setMetadata;
const A = (c: CommandContext) => c.can.admin;
const U = (c: CommandContext) => c.can.update;
const saved = (c: CommandContext) => c.issue.persisted;
const noop = () => undefined;

type Spec = Omit<IssueCommand, 'needsArg' | 'changes' | 'message'> & Partial<Pick<IssueCommand, 'needsArg' | 'changes' | 'message'>>;
const cmd = (s: Spec): IssueCommand => ({ needsArg: false, changes: [], message: () => '', ...s });
const fixed = (text: string) => (r: Run) => text.replace('%s', name(r));

/** A command without argument that sets one change and reports a fixed message (`%s`: the target word). */
function simple(
  command: string, key: string, value: unknown, message: string, available: IssueCommand['available'], aliases?: string[],
): IssueCommand {
  const set = (r: Run) => void (r.updates[key] = typeof value === 'function' ? value(r) : value);
  return cmd({ name: command, aliases, changes: [key], available, run: set, message: fixed(message) });
}

function labelCommand(command: 'label' | 'relabel', key: string, verb: string): Spec['run'] {
  return (r, arg) => {
    const found = labels(r, arg);
    if (!found.length) return;
    addIds(r, key, found.map((l) => l.id));
    r.stored.set(command, `${verb} ${refs(found)} ${plural('label', found.length)}.`);
  };
}

function spendMessage(r: Run, arg: string | null): string | null {
  const s = arg === null ? null : parseSpend(arg, r.ctx.today);
  if (!s || !s.seconds) return null;
  return `${s.seconds > 0 ? 'Added' : 'Subtracted'} ${formatDuration(Math.abs(s.seconds), r.ctx)} spent time.`;
}

/** The issue commands in GitLab's definition order (substitutions last). */
export const ISSUE_COMMANDS: readonly IssueCommand[] = [
  simple('close', 'state_event', 'close', 'Closed this %s.', (c) => saved(c) && c.issue.state === 'opened' && U(c)),
  simple('reopen', 'state_event', 'reopen', 'Reopened this %s.', (c) => saved(c) && c.issue.state === 'closed' && U(c)),
  cmd({
    name: 'title', needsArg: true, changes: ['title'], available: (c) => saved(c) && U(c),
    run: (r, a) => void (r.updates.title = a),
    message: (_, a) => `Changed the title to "${a}".`,
  }),
  cmd({
    name: 'label', aliases: ['labels'], needsArg: true, messageNeedsArg: false, changes: ['add_label_ids'],
    available: (c) => M(c) && c.labelsExist,
    run: labelCommand('label', 'add_label_ids', 'Added'),
  }),
  cmd({
    name: 'unlabel', aliases: ['remove_label'], changes: ['remove_label_ids', 'label_ids'],
    available: (c) => saved(c) && c.issue.labelIds.length > 0 && M(c),
    run: (r, arg) => {
      if (arg === null) {
        r.updates.label_ids = [];
        r.stored.set('unlabel', 'Removed all labels.');
        return;
      }
      const found = labels(r, arg);
      if (found.length) addIds(r, 'remove_label_ids', found.map((l) => l.id));
      r.stored.set('unlabel', found.length ? `Removed ${refs(found)} ${plural('label', found.length)}.` : 'Removed all labels.');
    },
  }),
  cmd({
    name: 'relabel', needsArg: true, messageNeedsArg: false, changes: ['label_ids'],
    available: (c) => saved(c) && c.issue.labelIds.length > 0 && M(c),
    run: labelCommand('relabel', 'label_ids', 'Replaced all labels with'),
  }),
  simple('todo', 'todo_event', 'add', 'Added a to-do item.', (c) => saved(c) && !c.hasPendingTodo),
  simple('done', 'todo_event', 'done', 'Marked to-do item as done.', (c) => saved(c) && c.hasPendingTodo),
  simple('subscribe', 'subscription_event', 'subscribe', 'Subscribed to notifications.', (c) => saved(c) && !c.subscribed),
  simple('unsubscribe', 'subscription_event', 'unsubscribe', 'Unsubscribed from notifications.', (c) => saved(c) && c.subscribed),
  cmd({
    name: 'react', aliases: ['award'], needsArg: true, changes: ['emoji_award'], available: saved,
    run: (r, arg) => {
      const emoji = parseAward(arg!);
      if (emoji && r.ctx.can.award) r.updates.emoji_award = emoji;
    },
    message: (_, arg) => (arg === null || parseAward(arg) === null ? null : `Toggled :${parseAward(arg)}: emoji reaction.`),
  }),
  cmd({
    name: 'confidential', changes: ['confidential'], available: (c) => !c.issue.confidential && c.can.setConfidentiality,
    run: (r) => {
      r.updates.confidential = true;
      r.stored.set('confidential', `Made this ${name(r)} confidential.`);
    },
  }),
  cmd({
    name: 'due', needsArg: true, changes: ['due_date'], available: M,
    run: (r, arg) => {
      const date = parseDueDate(arg!, r.ctx.today);
      if (date) r.updates.due_date = date;
      else r.stored.set('due', 'Failed to set due date because the date format is invalid.');
    },
    message: (r, arg) => {
      const date = arg === null ? null : parseDueDate(arg, r.ctx.today);
      return date ? `Set the due date to ${formatShortDate(date)}.` : null;
    },
  }),
  simple('remove_due_date', 'due_date', null, 'Removed the due date.', (c) => saved(c) && c.issue.dueDate !== null && M(c)),
  cmd({
    name: 'assign', needsArg: true, messageNeedsArg: false, changes: ['assignee_ids'], available: M,
    run: (r, arg) => {
      const found = users(r, arg!);
      if (!found?.length) return;
      if (r.ctx.issue.allowsMultipleAssignees) addIds(r, 'assignee_ids', found.map((u) => u.id), r.ctx.issue.assignees.map((u) => u.id));
      else r.updates.assignee_ids = [found[0].id];
    },
    message: (r, arg) => {
      const found = arg === null ? null : users(r, arg);
      if (!found?.length) return 'Failed to assign a user because no user was found.';
      return `Assigned ${userRefs(r.ctx.issue.allowsMultipleAssignees ? found : [found[0]])}.`;
    },
  }),
  cmd({
    name: 'unassign', changes: ['assignee_ids'], available: (c) => saved(c) && c.issue.assignees.length > 0 && M(c),
    run: (r, arg) => {
      const found = arg !== null && r.ctx.issue.allowsMultipleAssignees ? users(r, arg) : null;
      if (!found?.length) return void (r.updates.assignee_ids = []);
      const current = (r.updates.assignee_ids as number[] | undefined) ?? r.ctx.issue.assignees.map((u) => u.id);
      r.updates.assignee_ids = current.filter((id) => !found.some((u) => u.id === id));
    },
    message: (r, arg) => {
      const found = arg !== null && r.ctx.issue.allowsMultipleAssignees ? users(r, arg) : null;
      const removed = found?.length ? found : r.ctx.issue.assignees;
      return `Removed ${plural('assignee', removed.length)} ${userRefs(removed)}.`;
    },
  }),
  cmd({
    name: 'milestone', needsArg: true, changes: ['milestone_id'], available: (c) => M(c) && c.activeMilestonesExist,
    run: (r, arg) => {
      const m = r.ctx.findMilestone(parseMilestone(arg!));
      if (m) r.updates.milestone_id = m.id;
    },
    message: (r, arg) => {
      const m = arg === null ? null : r.ctx.findMilestone(parseMilestone(arg));
      return m ? `Set the milestone to ${m.reference}.` : null;
    },
  }),
  cmd({
    name: 'remove_milestone', changes: ['milestone_id'], available: (c) => saved(c) && c.issue.milestone !== null && M(c),
    run: (r) => void (r.updates.milestone_id = null),
    message: (r) => `Removed ${r.ctx.issue.milestone!.reference} milestone.`,
  }),
  cmd({
    name: 'estimate', aliases: ['estimate_time'], needsArg: true, changes: ['time_estimate'], available: A,
    run: (r, arg) => void (r.updates.time_estimate = parseEstimate(arg!)),
    message: (r, arg) => {
      const seconds = arg === null ? null : parseEstimate(arg);
      if (seconds === null) return null;
      return seconds === 0 ? 'Removed time estimate.' : `Set time estimate to ${formatDuration(seconds, r.ctx)}.`;
    },
  }),
  cmd({
    name: 'spend', aliases: ['spent', 'spend_time'], needsArg: true, changes: ['spend_time'], available: A,
    run: (r, arg) => {
      const s = parseSpend(arg!, r.ctx.today);
      if (!s || !s.seconds) return;
      const spentAt = s.date ? `${s.date}T12:00:00.000Z` : r.ctx.now.toISOString();
      r.updates.spend_time = { duration: s.seconds, user_id: r.ctx.currentUser.id, spent_at: spentAt, category: s.category };
    },
    message: spendMessage,
  }),
  simple('remove_estimate', 'time_estimate', 0, 'Removed time estimate.', (c) => saved(c) && A(c), ['remove_time_estimate']),
  simple('remove_time_spent', 'spend_time', (r: Run) => ({ duration: 'reset', user_id: r.ctx.currentUser.id }), 'Removed spent time.', (c) => saved(c) && A(c)),
  simple('lock', 'discussion_locked', true, 'Locked the discussion.', (c) => saved(c) && !c.issue.discussionLocked && M(c)),
  simple('unlock', 'discussion_locked', false, 'Unlocked the discussion.', (c) => saved(c) && c.issue.discussionLocked && M(c)),
  cmd({
    name: 'promote', changes: ['promote_to_epic'], available: (c) => saved(c) && c.issue.canBePromoted === true,
    run: (r) => void (r.updates.promote_to_epic = true),
    message: (r) => (r.ctx.issue.confidential
      ? 'Promoted confidential issue to a non-confidential epic. Information in this epic is no longer confidential as epics are public to group members.'
      : 'Promoted issue to an epic.'),
  }),
  ...SUBSTITUTIONS.map((s) => cmd({ ...s, available: () => true, run: noop, message: () => null })),
];

const BY_NAME = new Map(ISSUE_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])].map((n) => [n, c] as const)));

/** The command a canonical name or alias names, if any. */
export function issueCommand(nameOrAlias: string): IssueCommand | undefined {
  return BY_NAME.get(nameOrAlias.toLowerCase());
}

/** Takes the issue quick actions (and `/shrug`, `/tableflip`) out of a note body. */
export function extractIssueCommands(body: string): Extraction {
  return extractCommands(body, ISSUE_COMMANDS);
}

/** What a note's commands did: changes, one message per command (null = none), parse errors. */
export interface Interpretation {
  changes: CommandsChanges;
  messages: (string | null)[];
  /** Non-substitution commands found, available or not (GitLab's `commands_executed_count`). */
  executed: number;
  errors: string[];
}

/**
 * Runs extracted commands against the context as `QuickActions::InterpretService#execute` does:
 * every command runs in order (unavailable ones change nothing and say `Could not apply <name>
 * command.`); messages are computed after all of them, a message a command stored winning.
 */
export function interpretCommands(commands: readonly { name: string; arg: string | null }[], ctx: CommandContext): Interpretation {
  const r: Run = { ctx, updates: {}, stored: new Map(), errors: [] };
  const known = commands.flatMap((c) => {
    const def = issueCommand(c.name);
    return def ? [{ def, arg: c.arg }] : [];
  });
  const real = known.filter(({ def }) => def.substitution === undefined);
  for (const { def, arg } of real) {
    if (def.available(ctx) && (arg !== null || !def.needsArg)) def.run(r, arg);
  }
  const messages = known.map(({ def, arg }) => {
    if (def.substitution !== undefined) return null;
    if (!def.available(ctx)) return `Could not apply ${def.name} command.`;
    if (r.stored.has(def.name)) return r.stored.get(def.name)!;
    return arg === null && (def.messageNeedsArg ?? def.needsArg) ? null : def.message(r, arg);
  });
  return { changes: r.updates, messages, executed: real.length, errors: r.errors };
}

/** The one summary string GitLab reports (`execution_messages_for`: non-nil messages joined by a space). */
export function joinMessages(messages: readonly (string | null)[]): string {
  return messages.filter((m): m is string => m !== null).join(' ');
}
