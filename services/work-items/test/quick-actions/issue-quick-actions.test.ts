import type { Actor } from '@anvil/auth';
import type { ProjectContext } from '../../src/access/project-context';
import type { Issue } from '../../src/issues/issue-row';
import { findIssueByIid } from '../../src/issues/issue-store';
import { runIssueQuickActions } from '../../src/quick-actions/issue-quick-actions';
import { SHRUG } from '../../src/quick-actions/extractor';
import { small, Small } from '../support/small';
import { AccessLevel } from '../support/world';

describe('runIssueQuickActions', () => {
  let s: Small;
  beforeAll(async () => {
    s = await small();
    await s.world.member(s.group, s.reporter, AccessLevel.REPORTER);
  });
  afterAll(() => s?.svc.stop());

  const db = () => s.svc.deps.db;
  const access = (who: Actor, level: number): ProjectContext => ({
    id: s.project.id, path: 'proj', pathWithNamespace: s.project.path_with_namespace, namespaceId: s.project.namespace_id, groupId: s.group.id,
    traversalIds: [s.group.id], visibility: 'public', archived: false, level, viewer: { user: who, admin: false }, base: 'http://localhost',
  });
  const load = async (iid: number): Promise<Issue> => (await findIssueByIid(db(), s.project.id, iid)) as Issue;
  const run = async (iid: number, body: string, who = s.reporter, level: number = AccessLevel.REPORTER, saved: string[] = []) => {
    const issue = await load(iid);
    return db().transaction((trx) => runIssueQuickActions(trx, {
      issue, actor: who, access: access(who, level), body, now: new Date('2026-11-25T10:00:00Z'),
      saveNote: async (text) => {
        saved.push(text);
        return { id: 4242 };
      },
    }));
  };

  it('returns the text, the changes and one summary, and applies the changes', async () => {
    const { iid } = await s.issue();
    const r = await run(iid, '/close\n/due 2030-01-02');
    expect(r).toMatchObject({
      text: '', commandsOnly: true, changes: { state_event: 'close', due_date: '2030-01-02' },
      messages: ['Closed this issue. Set the due date to Jan 2, 2030.'], errors: [], note: null,
    });
    expect(await load(iid)).toMatchObject({ state: 'closed', dueDate: '2030-01-02' });
    expect(r.issue).toMatchObject({ state: 'closed', dueDate: '2030-01-02' });
  });

  it('applies in the caller\'s transaction: a rollback undoes the changes', async () => {
    const { iid } = await s.issue();
    const issue = await load(iid);
    await expect(db().transaction(async (trx) => {
      await runIssueQuickActions(trx, { issue, actor: s.reporter, access: access(s.reporter, AccessLevel.REPORTER), body: '/title Changed' });
      throw new Error('abort');
    })).rejects.toThrow('abort');
    expect((await load(iid)).title).toBe('An issue');
  });

  it('saves a body without commands as it is, changing nothing', async () => {
    const { iid } = await s.issue();
    const saved: string[] = [];
    const r = await run(iid, 'Just a comment  ', s.reporter, AccessLevel.REPORTER, saved);
    expect(saved).toEqual(['Just a comment  ']);
    expect(r).toMatchObject({ text: 'Just a comment  ', commandsOnly: false, changes: {}, messages: [], note: { id: 4242 } });
  });

  it('saves the remaining text and gives /spend the saved note\'s id', async () => {
    const { iid } = await s.issue();
    const saved: string[] = [];
    const r = await run(iid, 'Done today\n/spend 1h 2026-11-20', s.reporter, AccessLevel.REPORTER, saved);
    expect(saved).toEqual(['Done today']);
    expect(r.changes.spend_time).toEqual({ duration: 3600, user_id: s.reporter.id, spent_at: '2026-11-20T12:00:00.000Z', category: null, note_id: 4242 });
    expect((await load(iid)).totalTimeSpent).toBe(3600);
  });

  it('keeps substitutions as text (not a commands-only body)', async () => {
    const { iid } = await s.issue();
    const r = await run(iid, '/shrug');
    expect(r).toMatchObject({ text: SHRUG, commandsOnly: false, changes: {}, messages: [] });
  });

  it('ignores what a guest may not do, but lets them react, subscribe and add a to-do', async () => {
    const { iid } = await s.issue();
    const r = await run(iid, '/lock\n/award :tada:\n/subscribe\n/todo', s.guest, AccessLevel.GUEST);
    expect(r.changes).toEqual({ emoji_award: 'tada', subscription_event: 'subscribe', todo_event: 'add' });
    expect(r.messages).toEqual(['Could not apply lock command. Toggled :tada: emoji reaction. Subscribed to notifications. Added a to-do item.']);
    expect((await load(iid)).discussionLocked).toBeFalsy();
  });

  it('an award marks the caller\'s pending to-do done, as GitLab\'s award service does', async () => {
    const { id, iid } = await s.issue();
    await run(iid, '/todo', s.guest, AccessLevel.GUEST);
    expect((await run(iid, '/award :+1:', s.guest, AccessLevel.GUEST)).changes).toEqual({ emoji_award: '+1' });
    expect(await db()('todos').where({ user_id: s.guest.id, target_id: id }).select('state')).toEqual([{ state: 'done' }]);
    expect(await db()('award_emoji').where({ user_id: s.guest.id, awardable_id: id }).select('name')).toEqual([{ name: 'thumbsup' }]);
  });

  it('lets the author close their own issue (update_issue) but not set metadata', async () => {
    const { iid } = await s.issue({}, s.reporter);
    const own = await s.issue({}, s.guest);
    expect((await run(own.iid, '/close\n/label ~x', s.guest, AccessLevel.GUEST)).messages).toEqual(['Closed this issue. Could not apply label command.']);
    expect((await run(iid, '/close', s.guest, AccessLevel.GUEST)).messages).toEqual(['Could not apply close command.']);
  });

  it('finds labels and milestones of ancestor groups', async () => {
    const { iid } = await s.issue();
    const label = (await s.world.onGroup(s.group, s.reporter).post(`/api/v4/groups/${s.group.id}/labels`).send({ name: 'group wide', color: '#00FF00' }).expect(201)).body;
    const milestone = (await s.world.onGroup(s.group, s.reporter).post(`/api/v4/groups/${s.group.id}/milestones`).send({ title: 'Q1' }).expect(201)).body;
    const r = await run(iid, '/label ~"group wide"\n/milestone %Q1');
    expect(r.changes).toEqual({ add_label_ids: [label.id], milestone_id: milestone.id });
    expect(r.messages).toEqual(['Added ~"group wide" label. Set the milestone to %"Q1".']);
    expect(await load(iid)).toMatchObject({ milestoneId: milestone.id });
  });

  it('reports parse errors and a blank result of a commands-only body', async () => {
    const { iid } = await s.issue();
    expect((await run(iid, '/assign @ghost')).errors).toEqual(["Failed to find users for '@ghost'"]);
    expect((await run(iid, '/title')).errors).toEqual(['Failed to apply commands.']);
  });
});
