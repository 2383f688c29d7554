import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { ValidationError } from '@anvil/http';
import type { ProjectContext } from '../access/project-context';
import { toggleAwardIn } from '../award-emoji/award-service';
import { normalizeEmojiName } from '../award-emoji/emoji-names';
import type { IssueAttributes } from '../issues/issue-attributes';
import type { Issue } from '../issues/issue-row';
import { updateIssue } from '../issues/issue-service';
import { findIssueById, issueLabelIds } from '../issues/issue-store';
import { labelsByIds } from '../labels/label-store';
import { promoteIssue } from '../notes/promote';
import { setSubscription } from '../subscriptions/subscription-service';
import { setEstimate, spendTime } from '../time-tracking/time-tracking-service';
import { markIssueTodo, markTargetTodosDone } from '../todos/todo-store';
import type { CommandsChanges } from './context';

/** What `/spend` and `/remove_time_spent` put in `commands_changes.spend_time`. */
interface SpendChange {
  duration: number | 'reset';
  spent_at?: string;
}

/** The label titles an issue ends with after `label_ids` (replace), `add_label_ids` and `remove_label_ids`. */
async function labelTitles(trx: Knex.Transaction, issue: Issue, c: CommandsChanges): Promise<string[] | undefined> {
  if (!('label_ids' in c) && !('add_label_ids' in c) && !('remove_label_ids' in c)) return undefined;
  const remove = new Set((c.remove_label_ids as number[] | undefined) ?? []);
  const base = (c.label_ids as number[] | undefined) ?? (await issueLabelIds(trx, issue.id));
  const ids = [...new Set([...base, ...((c.add_label_ids as number[] | undefined) ?? [])])].filter((id) => !remove.has(id));
  return (await labelsByIds(trx, ids)).map((l) => l.title);
}

/** The edit the changes make through `updateIssue` (fields, state, labels, assignees, milestone). */
async function issueAttributes(trx: Knex.Transaction, issue: Issue, c: CommandsChanges): Promise<IssueAttributes> {
  const attrs: IssueAttributes = {};
  if (c.state_event === 'close' || c.state_event === 'reopen') attrs.stateEvent = c.state_event;
  if (typeof c.title === 'string') attrs.title = c.title;
  if ('assignee_ids' in c) attrs.assigneeIds = c.assignee_ids as number[];
  if ('milestone_id' in c) attrs.milestoneId = c.milestone_id as number | null;
  if ('due_date' in c) attrs.dueDate = c.due_date as string | null;
  if (c.confidential === true) attrs.confidential = true;
  if (typeof c.discussion_locked === 'boolean') attrs.discussionLocked = c.discussion_locked;
  const labels = await labelTitles(trx, issue, c);
  if (labels !== undefined) attrs.labels = labels;
  return attrs;
}

/** `toggle_award` on the issue (the award service's, with its counters, to-dos and events). */
function toggleAward(trx: Knex.Transaction, issue: Issue, userId: number, emoji: string): Promise<void> {
  const name = normalizeEmojiName(emoji) ?? emoji;
  const target = { type: 'Issue' as const, id: issue.id, projectId: issue.projectId, todoTarget: { type: 'Issue' as const, id: issue.id }, votesTable: 'issues' as const };
  return toggleAwardIn(trx, target, userId, name);
}

/** `/todo` adds a `marked` to-do; `/done` marks the caller's pending to-dos on the issue done. */
async function applyTodo(trx: Knex.Transaction, issue: Issue, userId: number, event: unknown): Promise<void> {
  if (event === 'add') await markIssueTodo(trx, issue, userId);
  if (event === 'done') await markTargetTodosDone(trx, userId, 'Issue', issue.id);
}

async function applyTimeTracking(trx: Knex.Transaction, issue: Issue, actorId: number, c: CommandsChanges): Promise<Issue> {
  let current = issue;
  if (typeof c.time_estimate === 'number') current = await setEstimate(trx, current, c.time_estimate, actorId);
  const spend = c.spend_time as SpendChange | undefined;
  if (spend) current = await spendTime(trx, current, spend.duration, actorId, { spentAt: spend.spent_at ? new Date(spend.spent_at) : undefined });
  return current;
}

/**
 * Applies a note's `commands_changes` to the issue in the caller's transaction, through the
 * domain services (`Issues::UpdateService`'s job): edits (with their system notes), time
 * tracking, award toggle, to-do, subscription, and last the promotion to an epic.
 */
export async function applyIssueChanges(trx: Knex.Transaction, pc: ProjectContext, issue: Issue, actor: Actor, c: CommandsChanges): Promise<Issue> {
  const attrs = await issueAttributes(trx, issue, c);
  let current = Object.keys(attrs).length ? await updateIssue(trx, pc, issue, attrs) : issue;
  current = await applyTimeTracking(trx, current, actor.id, c);
  if (typeof c.emoji_award === 'string') await toggleAward(trx, current, actor.id, c.emoji_award);
  await applyTodo(trx, current, actor.id, c.todo_event);
  if (c.subscription_event === 'subscribe' || c.subscription_event === 'unsubscribe') {
    await setSubscription(trx, current, actor.id, c.subscription_event === 'subscribe');
  }
  if (c.promote_to_epic === true) current = (await promoteIssue(trx, pc, current, actor.id)).issue;
  return (await findIssueById(trx, current.id)) ?? current;
}

/** `errors.full_messages` of a model validation failure: `Title is too long …`; base errors as they are. */
export function fullMessages(e: ValidationError): string[] {
  const humanize = (field: string) => field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');
  return Object.entries(e.fieldErrors).flatMap(([field, msgs]) => msgs.map((m) => (field === 'base' ? m : `${humanize(field)} ${m}`)));
}

/**
 * `apply_updates` as a unit: the changes apply together or, when the issue does not validate,
 * not at all, and the failure comes back as GitLab's message (full messages joined by `, `).
 */
export async function tryApplyIssueChanges(
  trx: Knex.Transaction, pc: ProjectContext, issue: Issue, actor: Actor, c: CommandsChanges,
): Promise<{ issue: Issue; error: null } | { issue: Issue; error: string }> {
  try {
    return { issue: await trx.transaction((sp) => applyIssueChanges(sp, pc, issue, actor, c)), error: null };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return { issue, error: fullMessages(e).join(', ') };
  }
}
