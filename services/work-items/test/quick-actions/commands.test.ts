import {
  ISSUE_COMMANDS, extractIssueCommands, interpretCommands, issueCommand, joinMessages, labelReference, milestoneReference, type CommandContext,
} from '../../src/quick-actions/commands';
import { extractCommands } from '../../src/quick-actions/extractor';

const root = { id: 1, username: 'root' };
const users = [{ id: 2, username: 'jane' }, { id: 3, username: 'joe' }];
const labels = [{ id: 10, name: 'bug' }, { id: 11, name: 'to do' }, { id: 12, name: 'say "hi"' }];
const milestones = [{ id: 20, iid: 1, title: 'v1.0' }];

function context(over: Partial<CommandContext> = {}, issue: Partial<CommandContext['issue']> = {}): CommandContext {
  return {
    issue: {
      persisted: true, state: 'opened', labelIds: [], assignees: [], allowsMultipleAssignees: false, milestone: null,
      dueDate: null, confidential: false, discussionLocked: false, ...issue,
    },
    can: { update: true, setMetadata: true, admin: true, setConfidentiality: true, award: true },
    currentUser: root, hasPendingTodo: false, subscribed: false, labelsExist: true, activeMilestonesExist: true,
    findLabels: (q) => labels.filter((l) => q.ids.includes(l.id) || q.names.includes(l.name)),
    findUsers: (names) => users.filter((u) => names.map((n) => n.toLowerCase()).includes(u.username)),
    findMilestone: (q) => {
      const m = milestones.find((x) => x.iid === q.iid || x.title === q.title || x.title === q.fallbackTitle);
      return m ? { id: m.id, reference: milestoneReference(m.title, m.iid) } : null;
    },
    today: '2024-06-12', now: new Date('2024-06-12T09:30:00Z'), ...over,
  };
}

const run = (body: string, ctx = context()) => {
  const { commands } = extractCommands(body, ISSUE_COMMANDS);
  const out = interpretCommands(commands, ctx);
  return { changes: out.changes, summary: joinMessages(out.messages), errors: out.errors };
};

type Row = [string, CommandContext, Record<string, unknown>, string];
const closed = context({}, { state: 'closed' });
const labelled = context({}, { labelIds: [10, 11] });
const assigned = context({}, { assignees: users });
const multi = context({}, { assignees: [users[0]], allowsMultipleAssignees: true });

describe('interpretCommands', () => {
  it.each<Row>([
    ['/close', context(), { state_event: 'close' }, 'Closed this issue.'],
    ['/close', closed, {}, 'Could not apply close command.'],
    ['/reopen', closed, { state_event: 'reopen' }, 'Reopened this issue.'],
    ['/reopen', context(), {}, 'Could not apply reopen command.'],
    ['/close\n/label ~bug', context(), { state_event: 'close', add_label_ids: [10] }, 'Closed this issue. Added ~"bug" label.'],
    ['/title  New title', context(), { title: ' New title' }, 'Changed the title to " New title".'],
    ['/title', context(), {}, ''],
    ['/label ~bug ~"to do"', context(), { add_label_ids: [10, 11] }, 'Added ~"bug" ~"to do" labels.'],
    ['/labels bug', context(), { add_label_ids: [10] }, 'Added ~"bug" label.'],
    ['/label ~12', context(), { add_label_ids: [12] }, 'Added ~12 label.'],
    ['/label ~nope', context(), {}, ''],
    ['/label ~bug', context({ labelsExist: false }), {}, 'Could not apply label command.'],
    ['/label ~bug', context({ can: { ...context().can, setMetadata: false } }), {}, 'Could not apply label command.'],
    ['/unlabel ~bug', labelled, { remove_label_ids: [10] }, 'Removed ~"bug" label.'],
    ['/remove_label', labelled, { label_ids: [] }, 'Removed all labels.'],
    ['/unlabel ~bug', context(), {}, 'Could not apply unlabel command.'],
    ['/relabel ~"to do"', labelled, { label_ids: [11] }, 'Replaced all labels with ~"to do" label.'],
    ['/assign @jane', context(), { assignee_ids: [2] }, 'Assigned @jane.'],
    ['/assign @jane @joe', context(), { assignee_ids: [2] }, 'Assigned @jane.'],
    ['/assign me, @joe', multi, { assignee_ids: [2, 1, 3] }, 'Assigned @root and @joe.'],
    ['/assign', context(), {}, 'Failed to assign a user because no user was found.'],
    ['/unassign', assigned, { assignee_ids: [] }, 'Removed assignees @jane and @joe.'],
    ['/unassign @jane', context({}, { assignees: users, allowsMultipleAssignees: true }), { assignee_ids: [3] }, 'Removed assignee @jane.'],
    ['/unassign', context(), {}, 'Could not apply unassign command.'],
    ['/milestone %"v1.0"', context(), { milestone_id: 20 }, 'Set the milestone to %"v1.0".'],
    ['/milestone %1', context(), { milestone_id: 20 }, 'Set the milestone to %"v1.0".'],
    ['/milestone v1.0', context(), { milestone_id: 20 }, 'Set the milestone to %"v1.0".'],
    ['/milestone %nope', context(), {}, ''],
    ['/milestone %1', context({ activeMilestonesExist: false }), {}, 'Could not apply milestone command.'],
    ['/remove_milestone', context({}, { milestone: { id: 20, reference: '%"v1.0"' } }), { milestone_id: null }, 'Removed %"v1.0" milestone.'],
    ['/due 2024-12-31', context(), { due_date: '2024-12-31' }, 'Set the due date to Dec 31, 2024.'],
    ['/due in 2 days', context(), { due_date: '2024-06-14' }, 'Set the due date to Jun 14, 2024.'],
    ['/due someday', context(), {}, 'Failed to set due date because the date format is invalid.'],
    ['/remove_due_date', context({}, { dueDate: '2024-12-31' }), { due_date: null }, 'Removed the due date.'],
    ['/remove_due_date', context(), {}, 'Could not apply remove_due_date command.'],
    ['/estimate 1d 2h', context(), { time_estimate: 36000 }, 'Set time estimate to 1d 2h.'],
    ['/estimate 1w 4d 5h', context({ limitToHours: true }), { time_estimate: 277200 }, 'Set time estimate to 77h.'],
    ['/estimate_time 0', context(), { time_estimate: 0 }, 'Removed time estimate.'],
    ['/estimate 1h', context({ can: { ...context().can, admin: false } }), {}, 'Could not apply estimate command.'],
    ['/remove_estimate', context(), { time_estimate: 0 }, 'Removed time estimate.'],
    ['/spend 1h 30m', context(), { spend_time: { duration: 5400, user_id: 1, spent_at: '2024-06-12T09:30:00.000Z', category: null } }, 'Added 1h 30m spent time.'],
    ['/spent -30m 2024-06-01', context(), { spend_time: { duration: -1800, user_id: 1, spent_at: '2024-06-01T12:00:00.000Z', category: null } }, 'Subtracted 30m spent time.'],
    ['/spend_time 1h [timecategory:dev]', context(), { spend_time: { duration: 3600, user_id: 1, spent_at: '2024-06-12T09:30:00.000Z', category: 'dev' } }, 'Added 1h spent time.'],
    ['/spend 1h 2024-07-01', context(), {}, ''],
    ['/remove_time_spent', context(), { spend_time: { duration: 'reset', user_id: 1 } }, 'Removed spent time.'],
    ['/confidential', context(), { confidential: true }, 'Made this issue confidential.'],
    ['/confidential', context({}, { confidential: true }), {}, 'Could not apply confidential command.'],
    ['/lock', context(), { discussion_locked: true }, 'Locked the discussion.'],
    ['/unlock', context({}, { discussionLocked: true }), { discussion_locked: false }, 'Unlocked the discussion.'],
    ['/unlock', context(), {}, 'Could not apply unlock command.'],
    ['/react :+1:', context(), { emoji_award: '+1' }, 'Toggled :+1: emoji reaction.'],
    ['/award :tada:', context({ can: { ...context().can, award: false } }), {}, 'Toggled :tada: emoji reaction.'],
    ['/react thumbsup', context(), {}, ''],
    ['/todo', context(), { todo_event: 'add' }, 'Added a to-do item.'],
    ['/todo', context({ hasPendingTodo: true }), {}, 'Could not apply todo command.'],
    ['/done', context({ hasPendingTodo: true }), { todo_event: 'done' }, 'Marked to-do item as done.'],
    ['/subscribe', context(), { subscription_event: 'subscribe' }, 'Subscribed to notifications.'],
    ['/unsubscribe', context({ subscribed: true }), { subscription_event: 'unsubscribe' }, 'Unsubscribed from notifications.'],
    ['/promote', context({}, { canBePromoted: true }), { promote_to_epic: true }, 'Promoted issue to an epic.'],
    ['/promote', context(), {}, 'Could not apply promote command.'],
    ['/label ~bug\n/label ~"to do"', context(), { add_label_ids: [10, 11] }, 'Added ~"to do" label. Added ~"to do" label.'],
    ['/shrug meh\n/close', context(), { state_event: 'close' }, 'Closed this issue.'],
  ])('%j', (body, ctx, changes, summary) => {
    const out = run(body, ctx);
    expect([out.changes, out.summary]).toEqual([changes, summary]);
  });

  it('records a parse error for unknown users', () => {
    expect(run('/assign @nobody')).toEqual({ changes: {}, summary: 'Failed to assign a user because no user was found.', errors: ["Failed to find users for '@nobody'"] });
  });

  it('counts every command found, available or not', () => {
    const { commands } = extractCommands('/close\n/reopen\n/tableflip', ISSUE_COMMANDS);
    expect(interpretCommands(commands, context()).executed).toBe(2);
  });

  it('says "item" for work items', () => {
    expect(run('/close', context({ targetName: 'item' })).summary).toBe('Closed this item.');
  });
});

describe('extractIssueCommands', () => {
  it('keeps the text and finds commands by any alias', () => {
    expect(extractIssueCommands('Hello\n/CLOSE\n/spent 1h\n/unknown\nWorld')).toEqual({
      text: 'Hello\n/unknown\nWorld',
      commands: [{ name: 'close', arg: null }, { name: 'spend', arg: '1h' }],
    });
  });
});

describe('command table', () => {
  it.each([
    ['labels', 'label'], ['remove_label', 'unlabel'], ['estimate_time', 'estimate'], ['remove_time_estimate', 'remove_estimate'],
    ['spent', 'spend'], ['spend_time', 'spend'], ['award', 'react'], ['CLOSE', 'close'],
  ])('%s is %s', (alias, name) => {
    expect(issueCommand(alias)?.name).toBe(name);
  });
  it.each([[{ id: 1, name: 'bug' }, '~"bug"'], [{ id: 7, name: 'a "b"' }, '~7']])('%j', (l, ref) => expect(labelReference(l)).toBe(ref));
});
