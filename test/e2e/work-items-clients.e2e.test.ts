import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/**
 * Real clients through the real gateway: python-gitlab (Debian python3-gitlab) and
 * @gitbeaker/rest drive issue create, filtered lists, page walks via Link, close, subscribe
 * twice (304), to-do twice (304) and the time-tracking round trip; gitbeaker also promotes an
 * issue with `/promote` and links a merge request that closes an issue.
 */
describe('issues with real clients through the gateway', () => {
  let fleet: Fleet;
  let dev: { id: number; token: string };
  let reporter: { id: number; token: string };
  let groupId: number;
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = (m: string, p: string, b?: unknown) => call(fleet, fleet.adminToken, m, p, b);
    const user = (username: string) => userWithToken(fleet, username);
    dev = await user('dev');
    reporter = await user('rep');
    const group = await admin('POST', '/groups', { name: 'Work', path: 'work', visibility: 'private' });
    groupId = group.id;
    const project = await admin('POST', '/projects', { name: 'Tracker', path: 'tracker', namespace_id: group.id, visibility: 'private' });
    projectId = project.id;
    await admin('POST', `/projects/${projectId}/members`, { user_id: dev.id, access_level: 30 });
    await admin('POST', `/projects/${projectId}/members`, { user_id: reporter.id, access_level: 20 });
    await admin('POST', `/groups/${groupId}/members`, { user_id: dev.id, access_level: 20 }).catch(() => undefined);
    await waitForReadModel(fleet, dev.token, reporter.id);
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  /** Identity's events reach work-items asynchronously: wait until an assignment by id sticks. */
  async function waitForReadModel(f: Fleet, token: string, userId: number): Promise<void> {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const issue = await call(f, token, 'POST', `/projects/${projectId}/issues`, { title: 'probe', assignee_ids: [userId] });
      await call(f, fleet.adminToken, 'DELETE', `/projects/${projectId}/issues/${issue.iid}`);
      if (issue.assignees.length === 1) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('work-items never saw identity’s users');
  }

  it('python-gitlab: create, filter, walk pages, close, subscribe/todo twice, time tracking', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'issues_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, DEV_TOKEN: dev.token, REPORTER_TOKEN: reporter.token, REPORTER_ID: String(reporter.id), PROJECT_ID: String(projectId), GROUP_ID: String(groupId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.created).toEqual({ iid: expect.any(Number), labels: ['bug', 'ui'], assignees: [reporter.id], tasks: { count: 2, completed_count: 1 } });
    expect(out.filtered).toEqual([out.created.iid]);
    expect(out.unassigned_bulk).toBe(5);
    expect(out.walked).toEqual(['Py bulk 0', 'Py bulk 1', 'Py bulk 2', 'Py bulk 3', 'Py bulk 4']);
    expect(out.iterator).toEqual({ total: 5, total_pages: 3, count: 5 });
    expect(out.global_search).toEqual(['Py login bug']);
    expect(out.closed_state).toBe('closed');
    expect(out.group_closed).toEqual(['Py login bug']);
    expect(out.second_subscribe).toBe(304);
    expect(out.second_todo).toBe(304);
    expect(out.todos).toEqual(['Py login bug']);
    expect(out.time).toEqual({
      estimate: '3h 30m', spent: '1h 15m',
      stats: { time_estimate: 12600, total_time_spent: 4500, human_time_estimate: '3h 30m', human_total_time_spent: '1h 15m' },
    });
    expect(out.time_reset).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
  });

  it('@gitbeaker/rest: create, paginate via Link, not[...] filters, close, subscribe/todo twice, time tracking, promote, closing MR', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: dev.token });
    const rep = new Gitlab({ host: fleet.url, token: reporter.token });
    const created = await api.Issues.create(projectId, 'GB issue', { labels: 'bug,ui', description: 'from gitbeaker' });
    expect(created.labels).toEqual(['bug', 'ui']);
    for (let n = 0; n < 3; n++) await api.Issues.create(projectId, `GB page ${n}`, { labels: 'gbpage' });

    const one = await api.Issues.all({ projectId, labels: 'gbpage', perPage: 2, maxPages: 1, showExpanded: true });
    expect(one.data).toHaveLength(2);
    expect(one.paginationInfo).toMatchObject({ total: 3, totalPages: 2, perPage: 2, current: 1, next: 2, previous: null });
    const walked = await api.Issues.all({ groupId, labels: 'gbpage', perPage: 2 });
    expect(walked.map((i) => i.title).sort()).toEqual(['GB page 0', 'GB page 1', 'GB page 2']);
    const negated = await api.Issues.all({ scope: 'all', not: { labels: 'bug' }, labels: 'gbpage' } as never);
    expect(negated).toHaveLength(3);

    const closed = await api.Issues.edit(projectId, created.iid, { stateEvent: 'close' });
    expect(closed.state).toBe('closed');

    const subscribed = await rep.Issues.subscribe(projectId, created.iid);
    expect(subscribed.subscribed).toBe(true);
    await expect(rep.Issues.subscribe(projectId, created.iid)).rejects.toMatchObject({ cause: { response: { status: 304 } } });
    const todo = await rep.Issues.createTodo(projectId, created.iid);
    expect(todo).toMatchObject({ action_name: 'marked', target_type: 'Issue', state: 'pending' });
    await expect(rep.Issues.createTodo(projectId, created.iid)).rejects.toMatchObject({ cause: { response: { status: 304 } } });

    const est = await api.Issues.addTimeEstimate(projectId, created.iid, '3h30m');
    expect(est.human_time_estimate).toBe('3h 30m');
    const spent = await api.Issues.addSpentTime(projectId, created.iid, '2h', { summary: 'worked' });
    expect(spent.human_total_time_spent).toBe('2h');
    expect(await api.Issues.showTimeStats(projectId, created.iid)).toMatchObject({ time_estimate: 12600, total_time_spent: 7200 });

    const epicIssue = await api.Issues.create(projectId, 'Make it an epic');
    const promoted = await api.IssueNotes.create(projectId, epicIssue.iid, '/promote');
    expect(promoted).toMatchObject({ commands_changes: { promote_to_epic: true } });
    expect((await api.Issues.show(epicIssue.iid, { projectId })).state).toBe('closed');

    const target = await api.Issues.create(projectId, 'Closed by MR');
    const mr = await api.MergeRequests.create(projectId, 'feature', 'main', 'Fix it', { description: `Closes #${target.iid}` });
    const closing = await api.Issues.allClosedByMergeRequestst(projectId, target.iid);
    expect(closing.map((m) => m.iid)).toEqual([mr.iid]);
    const related = await api.Issues.allRelatedMergeRequests(projectId, target.iid);
    expect(related.map((m) => m.iid)).toEqual([mr.iid]);
  });
});
