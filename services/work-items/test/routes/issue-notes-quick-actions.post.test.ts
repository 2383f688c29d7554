import type { Actor } from '@anvil/auth';
import { small, Small } from '../support/small';

describe('POST /projects/:id/issues/:issue_iid/notes (quick actions)', () => {
  let s: Small;
  let labels: Record<string, number>;
  let milestoneId: number;
  beforeAll(async () => {
    s = await small();
    labels = {};
    for (const name of ['bug', 'feature']) {
      labels[name] = (await s.on(s.reporter).post(`/api/v4/projects/${s.project.id}/labels`).send({ name, color: '#FF0000' }).expect(201)).body.id;
    }
    milestoneId = (await s.on(s.reporter).post(`/api/v4/projects/${s.project.id}/milestones`).send({ title: 'v1' }).expect(201)).body.id;
  });
  afterAll(() => s?.svc.stop());

  const note = (who: Actor, iid: number, body: string) => s.on(who).post(s.path(iid, '/notes')).send({ body });
  const show = async (iid: number) => (await s.on(s.reporter).get(s.path(iid)).expect(200)).body;
  const accepted = async (iid: number, body: string, who: Actor = s.reporter) => (await note(who, iid, body).expect(202)).body;
  const systemNotes = async (id: number): Promise<string[]> =>
    (await s.svc.deps.db('notes').where({ noteable_type: 'Issue', noteable_id: id, system: true }).orderBy('id')).map((n: { body: string }) => n.body);

  describe('a body of commands only: 202 NoteCommands, nothing saved', () => {
    it('/close and /reopen change the state', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/close')).toEqual({ commands_changes: { state_event: 'close' }, summary: ['Closed this issue.'] });
      expect(await show(issue.iid)).toMatchObject({ state: 'closed', user_notes_count: 0, closed_by: { id: s.reporter.id } });
      expect(await accepted(issue.iid, '/reopen')).toEqual({ commands_changes: { state_event: 'reopen' }, summary: ['Reopened this issue.'] });
      expect((await show(issue.iid)).state).toBe('opened');
      expect(await systemNotes(issue.id)).toEqual([]);
    });

    it('/title renames, with its system note', async () => {
      const issue = await s.issue({ title: 'Old' });
      expect(await accepted(issue.iid, '/title New')).toEqual({ commands_changes: { title: 'New' }, summary: ['Changed the title to "New".'] });
      expect((await show(issue.iid)).title).toBe('New');
      expect(await systemNotes(issue.id)).toEqual([expect.stringMatching(/^changed title from \*\*.*Old.*\*\* to \*\*.*New.*\*\*$/)]);
    });

    it('/label, /unlabel and /relabel edit labels', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/label ~bug')).toEqual({ commands_changes: { add_label_ids: [labels.bug] }, summary: ['Added ~"bug" label.'] });
      expect((await show(issue.iid)).labels).toEqual(['bug']);
      expect(await accepted(issue.iid, '/relabel ~feature')).toEqual({ commands_changes: { label_ids: [labels.feature] }, summary: ['Replaced all labels with ~"feature" label.'] });
      expect((await show(issue.iid)).labels).toEqual(['feature']);
      expect(await accepted(issue.iid, '/unlabel ~feature')).toEqual({ commands_changes: { remove_label_ids: [labels.feature] }, summary: ['Removed ~"feature" label.'] });
      expect((await show(issue.iid)).labels).toEqual([]);
      expect(await systemNotes(issue.id)).toEqual([]);
    });

    it('/assign and /unassign edit assignees, with system notes', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/assign @reporter')).toEqual({ commands_changes: { assignee_ids: [s.reporter.id] }, summary: ['Assigned @reporter.'] });
      expect((await show(issue.iid)).assignees).toEqual([expect.objectContaining({ id: s.reporter.id })]);
      expect(await accepted(issue.iid, '/unassign')).toEqual({ commands_changes: { assignee_ids: [] }, summary: ['Removed assignee @reporter.'] });
      expect((await show(issue.iid)).assignees).toEqual([]);
      expect(await systemNotes(issue.id)).toEqual(['assigned to @reporter', 'unassigned @reporter']);
    });

    it('/milestone and /remove_milestone set and clear the milestone', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/milestone %"v1"')).toEqual({ commands_changes: { milestone_id: milestoneId }, summary: ['Set the milestone to %"v1".'] });
      expect((await show(issue.iid)).milestone).toMatchObject({ id: milestoneId, title: 'v1' });
      expect(await accepted(issue.iid, '/remove_milestone')).toEqual({ commands_changes: { milestone_id: null }, summary: ['Removed %"v1" milestone.'] });
      expect((await show(issue.iid)).milestone).toBeNull();
    });

    it('/due and /remove_due_date set and clear the due date, with system notes', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/due 2030-12-31')).toEqual({ commands_changes: { due_date: '2030-12-31' }, summary: ['Set the due date to Dec 31, 2030.'] });
      expect((await show(issue.iid)).due_date).toBe('2030-12-31');
      expect(await accepted(issue.iid, '/remove_due_date')).toEqual({ commands_changes: { due_date: null }, summary: ['Removed the due date.'] });
      expect((await show(issue.iid)).due_date).toBeNull();
      expect(await systemNotes(issue.id)).toEqual(['changed due date to December 31, 2030', 'removed due date December 31, 2030']);
    });

    it('/estimate and /remove_estimate set and clear the estimate, with system notes', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/estimate 1d 2h')).toEqual({ commands_changes: { time_estimate: 36000 }, summary: ['Set time estimate to 1d 2h.'] });
      expect((await show(issue.iid)).time_stats).toMatchObject({ time_estimate: 36000, human_time_estimate: '1d 2h' });
      expect(await accepted(issue.iid, '/remove_estimate')).toEqual({ commands_changes: { time_estimate: 0 }, summary: ['Removed time estimate.'] });
      expect((await show(issue.iid)).time_stats.time_estimate).toBe(0);
      expect(await systemNotes(issue.id)).toEqual(['added time estimate of 1d 2h', 'removed time estimate of 1d 2h']);
    });

    it('/spend and /remove_time_spent log time, with system notes', async () => {
      const issue = await s.issue();
      const spent = await accepted(issue.iid, '/spend 1h 30m');
      expect(spent).toEqual({
        commands_changes: { spend_time: { duration: 5400, user_id: s.reporter.id, spent_at: expect.any(String), category: null, note_id: null } },
        summary: ['Added 1h 30m spent time.'],
      });
      expect((await show(issue.iid)).time_stats.total_time_spent).toBe(5400);
      expect(await accepted(issue.iid, '/remove_time_spent')).toEqual({
        commands_changes: { spend_time: { duration: 'reset', user_id: s.reporter.id, note_id: null } }, summary: ['Removed spent time.'],
      });
      expect((await show(issue.iid)).time_stats.total_time_spent).toBe(0);
      expect(await systemNotes(issue.id)).toEqual(['added 1h 30m of time spent', 'removed time spent']);
    });

    it('/spend with a past date logs it on that day', async () => {
      const issue = await s.issue();
      await accepted(issue.iid, '/spend 2h 2024-01-15');
      const log = await s.svc.deps.db('timelogs').where({ issue_id: issue.id }).first();
      expect(new Date(log.spent_at).toISOString()).toBe('2024-01-15T12:00:00.000Z');
      expect(await systemNotes(issue.id)).toEqual(['added 2h of time spent at 2024-01-15']);
    });

    it('/confidential, /lock and /unlock set the flags, with system notes', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/confidential')).toEqual({ commands_changes: { confidential: true }, summary: ['Made this issue confidential.'] });
      expect(await accepted(issue.iid, '/lock')).toEqual({ commands_changes: { discussion_locked: true }, summary: ['Locked the discussion.'] });
      expect(await show(issue.iid)).toMatchObject({ confidential: true, discussion_locked: true });
      expect(await accepted(issue.iid, '/unlock')).toEqual({ commands_changes: { discussion_locked: false }, summary: ['Unlocked the discussion.'] });
      expect((await show(issue.iid)).discussion_locked).toBe(false);
      expect(await systemNotes(issue.id)).toEqual([
        'made the issue confidential', 'locked the discussion in this issue', 'unlocked the discussion in this issue',
      ]);
    });

    it('/award toggles the caller\'s emoji reaction', async () => {
      const issue = await s.issue();
      const toggled = { commands_changes: { emoji_award: 'thumbsup' }, summary: ['Toggled :thumbsup: emoji reaction.'] };
      expect(await accepted(issue.iid, '/award :thumbsup:', s.guest)).toEqual(toggled);
      expect((await show(issue.iid)).upvotes).toBe(1);
      const awards = await s.on(s.guest).get(s.path(issue.iid, '/award_emoji')).expect(200);
      expect(awards.body).toEqual([expect.objectContaining({ name: 'thumbsup', user: expect.objectContaining({ id: s.guest.id }) })]);
      expect(await accepted(issue.iid, '/award :thumbsup:', s.guest)).toEqual(toggled);
      expect((await show(issue.iid)).upvotes).toBe(0);
    });

    it('/todo and /done add and finish the caller\'s to-do', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/todo', s.guest)).toEqual({ commands_changes: { todo_event: 'add' }, summary: ['Added a to-do item.'] });
      const todos = () => s.svc.deps.db('todos').where({ user_id: s.guest.id, target_id: issue.id }).select('action', 'state');
      expect(await todos()).toEqual([{ action: 'marked', state: 'pending' }]);
      expect(await accepted(issue.iid, '/done', s.guest)).toEqual({ commands_changes: { todo_event: 'done' }, summary: ['Marked to-do item as done.'] });
      expect(await todos()).toEqual([{ action: 'marked', state: 'done' }]);
    });

    it('/subscribe and /unsubscribe change the caller\'s subscription', async () => {
      const issue = await s.issue();
      const subscribed = async () => (await s.on(s.guest).get(s.path(issue.iid)).expect(200)).body.subscribed;
      expect(await accepted(issue.iid, '/subscribe', s.guest)).toEqual({ commands_changes: { subscription_event: 'subscribe' }, summary: ['Subscribed to notifications.'] });
      expect(await subscribed()).toBe(true);
      expect(await accepted(issue.iid, '/unsubscribe', s.guest)).toEqual({ commands_changes: { subscription_event: 'unsubscribe' }, summary: ['Unsubscribed from notifications.'] });
      expect(await subscribed()).toBe(false);
    });

    it('runs several commands and reports one summary', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/close\n/label ~bug')).toEqual({
        commands_changes: { state_event: 'close', add_label_ids: [labels.bug] }, summary: ['Closed this issue. Added ~"bug" label.'],
      });
    });
  });

  describe('a body with text and commands', () => {
    it('saves the text without the command lines (201) and lists the applied changes', async () => {
      const issue = await s.issue();
      const res = await note(s.reporter, issue.iid, 'Hello\n/close\nWorld').expect(201);
      expect(res.body).toMatchObject({ body: 'Hello\nWorld', system: false, commands_changes: { state_event: 'close' } });
      expect(await show(issue.iid)).toMatchObject({ state: 'closed', user_notes_count: 1 });
    });

    it('gives /spend the saved note\'s id', async () => {
      const issue = await s.issue();
      const res = await note(s.reporter, issue.iid, 'Worked on it\n/spend 1h').expect(201);
      expect(res.body.commands_changes.spend_time).toMatchObject({ duration: 3600, note_id: res.body.id });
    });
  });

  describe('commands the caller may not run', () => {
    it('are ignored for a guest: "Could not apply <name> command." and nothing changes', async () => {
      const issue = await s.issue();
      expect(await accepted(issue.iid, '/label ~bug\n/close\n/estimate 1h', s.guest)).toEqual({
        commands_changes: {}, summary: ['Could not apply label command. Could not apply close command. Could not apply estimate command.'],
      });
      expect(await show(issue.iid)).toMatchObject({ state: 'opened', labels: [], time_stats: expect.objectContaining({ time_estimate: 0 }) });
    });

    it('are ignored when unavailable (closing a closed issue)', async () => {
      const issue = await s.issue();
      await accepted(issue.iid, '/close');
      expect(await accepted(issue.iid, '/close')).toEqual({ commands_changes: {}, summary: ['Could not apply close command.'] });
    });
  });

  describe('failures', () => {
    it('a command without its argument and no other text is 400 Failed to apply commands.', async () => {
      const issue = await s.issue();
      expect((await note(s.reporter, issue.iid, '/title').expect(400)).body).toEqual({ message: '400 Bad request - Failed to apply commands.' });
    });

    it('changes the issue rejects are 400 Note {:validation=>[…]}, none applied, the text still saved', async () => {
      const issue = await s.issue();
      const res = await note(s.reporter, issue.iid, 'Oops\n/close\n/spend -5h').expect(400);
      expect(res.body).toEqual({ message: '400 Bad request - Note {:validation=>["Time to subtract exceeds the total time spent"]}' });
      expect(await show(issue.iid)).toMatchObject({ state: 'opened', user_notes_count: 1 });
      const long = 'x'.repeat(256);
      expect((await note(s.reporter, issue.iid, `/title ${long}`).expect(400)).body).toEqual({
        message: '400 Bad request - Note {:validation=>["Title is too long (maximum is 255 characters)"]}',
      });
      expect((await show(issue.iid)).title).toBe('An issue');
    });

    it('an unknown user in /assign is 400 with the parse error', async () => {
      const issue = await s.issue();
      expect((await note(s.reporter, issue.iid, '/assign @nobody').expect(400)).body).toEqual({ message: "400 Bad request - Failed to find users for '@nobody'" });
    });
  });
});
