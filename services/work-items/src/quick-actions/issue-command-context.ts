import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import type { ProjectContext } from '../access/project-context';
import type { Issue } from '../issues/issue-row';
import { assigneeIds, issueLabelIds } from '../issues/issue-store';
import { canAdminIssue, canUpdateIssue } from '../issues/policy';
import { labelsAvailableToProject } from '../labels/label-store';
import { milestonesByIds, milestonesOwnedBy, milestoneFromRow, Milestone, MilestoneRow } from '../milestones/milestone-store';
import { canPromote } from '../notes/promote';
import { usersByIds } from '../read-model/store';
import { isSubscribed } from '../subscriptions/subscription-service';
import { hasPendingTodo } from '../todos/todo-store';
import { parseUsers, type LabelQuery, type MilestoneQuery, type QuickActionUser } from './arguments';
import { milestoneReference, type CommandContext, type QuickActionMilestone } from './context';
import type { ExtractedCommand } from './extractor';

/** Commands whose argument names users (looked up before interpretation). */
const USER_COMMANDS = new Set(['assign', 'unassign']);

const toRef = (m: Milestone): QuickActionMilestone => ({ id: m.id, reference: milestoneReference(m.title, m.iid) });

/** Users named by the commands' arguments, by lower-cased username. */
async function namedUsers(db: Knex.Transaction, commands: readonly ExtractedCommand[]): Promise<QuickActionUser[]> {
  const names = commands.filter((c) => USER_COMMANDS.has(c.name) && c.arg !== null).flatMap((c) => parseUsers(c.arg).usernames);
  if (!names.length) return [];
  return db('users').select('id', 'username').whereRaw('lower(username) = ANY(?)', [[...new Set(names.map((n) => n.toLowerCase()))]]).where({ deleted: false });
}

/** `find_milestones`: `%iid` among the project's own, titles among the project's and its groups'. */
function milestoneFinder(all: readonly Milestone[], projectId: number): (q: MilestoneQuery) => QuickActionMilestone | null {
  return (q) => {
    const found = q.iid !== null
      ? all.find((m) => m.projectId === projectId && m.iid === q.iid)
      : all.find((m) => m.title === (q.title ?? q.fallbackTitle));
    return found ? toRef(found) : null;
  };
}

/** The issue's milestone: from those of the project and its groups when it is one of them, else by id. */
async function currentMilestone(db: Knex.Transaction, issue: Issue, owned: readonly Milestone[]): Promise<Milestone | undefined> {
  const id = issue.milestoneId;
  if (id === null) return undefined;
  return owned.find((m) => m.id === id) ?? (await milestonesByIds(db, [id])).get(id);
}

/** What the issue's state and associations are, as the command table reads them. */
async function issueState(
  db: Knex.Transaction, pc: ProjectContext, issue: Issue, assignees: number[], milestones: readonly Milestone[],
): Promise<CommandContext['issue']> {
  const users = await usersByIds(db, assignees);
  const milestone = await currentMilestone(db, issue, milestones);
  return {
    persisted: true,
    state: issue.state,
    labelIds: await issueLabelIds(db, issue.id),
    assignees: assignees.map((id) => ({ id, username: users.get(id)?.username ?? `${id}` })),
    allowsMultipleAssignees: true,
    milestone: milestone ? toRef(milestone) : null,
    dueDate: issue.dueDate,
    confidential: issue.confidential,
    discussionLocked: !!issue.discussionLocked,
    canBePromoted: canPromote(pc, issue),
  };
}

/**
 * Builds the `CommandContext` of a note on `issue` by `actor`: the issue's state, the caller's
 * permissions from their level (U/M/A), labels and milestones of the project and its ancestor
 * groups, the users the commands name, the caller's pending to-do and subscription.
 */
export async function buildCommandContext(
  db: Knex.Transaction, pc: ProjectContext, issue: Issue, actor: Actor, commands: readonly ExtractedCommand[], now: Date,
): Promise<CommandContext> {
  const assignees = await assigneeIds(db, issue.id);
  const labels = await labelsAvailableToProject(db, pc.id, pc.traversalIds);
  const milestoneRows: MilestoneRow[] = await milestonesOwnedBy(db, pc.id, pc.traversalIds).orderByRaw('m.project_id NULLS LAST, m.id');
  const milestones = milestoneRows.map(milestoneFromRow);
  const active = milestones.filter((m) => m.state === 'active');
  const users = await namedUsers(db, commands);
  const metadata = canAdminIssue(pc);
  return {
    issue: await issueState(db, pc, issue, assignees, milestones),
    can: { update: canUpdateIssue(pc, issue, assignees), setMetadata: metadata, admin: metadata, setConfidentiality: metadata, award: true },
    currentUser: { id: actor.id, username: actor.username },
    hasPendingTodo: await hasPendingTodo(db, actor.id, 'Issue', issue.id),
    subscribed: await isSubscribed(db, issue, actor.id),
    labelsExist: labels.length > 0,
    activeMilestonesExist: active.length > 0,
    findLabels: (q: LabelQuery) => labels.filter((l) => q.ids.includes(l.id) || q.names.includes(l.title)).map((l) => ({ id: l.id, name: l.title })),
    findUsers: (names) => users.filter((u) => names.some((n) => n.toLowerCase() === u.username.toLowerCase())),
    findMilestone: milestoneFinder(milestones, pc.id),
    today: now.toISOString().slice(0, 10),
    now,
  };
}
