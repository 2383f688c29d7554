import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/**
 * python-gitlab and gitbeaker through the real gateway on issue, merge request, epic and snippet
 * notes: create, list, get, edit, delete, internal notes for a Developer and a Guest, quick actions,
 * the system note of an assignee change, and anonymous callers refused.
 */
describe('notes with python-gitlab through the gateway', () => {
  let fleet: Fleet;
  let dev: { id: number; token: string };
  let guest: { id: number; token: string };
  let groupId: number;
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = (m: string, p: string, b?: unknown) => call(fleet, fleet.adminToken, m, p, b);
    const user = (username: string) => userWithToken(fleet, username);
    dev = await user('dev');
    guest = await user('gst');
    groupId = (await admin('POST', '/groups', { name: 'Talk', path: 'talk', visibility: 'private' })).id;
    projectId = (await admin('POST', '/projects', { name: 'Chat', path: 'chat', namespace_id: groupId, visibility: 'private' })).id;
    await admin('POST', `/groups/${groupId}/members`, { user_id: dev.id, access_level: 30 });
    await admin('POST', `/projects/${projectId}/members`, { user_id: guest.id, access_level: 10 });
    await waitForReadModel(guest.token);
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  /** Identity's events reach work-items asynchronously: wait until the guest's comment shows its author. */
  async function waitForReadModel(token: string): Promise<void> {
    const issue = await call(fleet, dev.token, 'POST', `/projects/${projectId}/issues`, { title: 'probe' });
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const note = await call(fleet, token, 'POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'probe' });
      if (note.author) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('work-items never saw identity’s users');
  }

  it('refuses anonymous callers with 401 on every verb', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${fleet.url}/api/v4/projects/${projectId}/issues/1/notes`, { method });
      expect([res.status, await res.json()]).toEqual([401, { message: '401 Unauthorized' }]);
    }
  });

  it('python-gitlab: issue, merge request and epic notes round trip', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'notes_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, DEV_TOKEN: dev.token, GUEST_TOKEN: guest.token, PROJECT_ID: String(projectId), GROUP_ID: String(groupId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.issue_notes).toEqual([['Py first, edited', false, expect.any(Number)], ['Py staff only', true, expect.any(Number)]]);
    expect(out.read).toBe('Py first, edited');
    expect(out.guest_sees).toEqual(['Py first, edited']);
    expect(out.guest_internal).toBe(404);
    expect(out.guest_internal_flag).toBe(false);
    expect(out.after_delete).toEqual(['Py guest', 'Py staff only']);
    expect(out.user_notes_count).toBe(2);
    expect(out.mr_notes).toEqual([['Py MR note', 'MergeRequest', expect.any(Number)]]);
    expect(out.epic_notes).toEqual([['Py epic note', 'Epic', true, null]]);
    expect(out.snippet_notes).toEqual([['Py snippet note, edited', 'Snippet']]);
    expect(out.snippet_after_delete).toEqual([]);
    expect(out.quick).toEqual(['closed', 3600]);
    expect(out.comments).toEqual(['Closing this']);
    expect(out.system_notes).toEqual(['added time estimate of 1h', 'assigned to @dev']);
  });

  it('gitbeaker: notes on an issue, a snippet and a merge request; a quick-action note; the assignee system note', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: dev.token });
    const issue = await api.Issues.create(projectId, 'Gb noted');
    const note = await api.IssueNotes.create(projectId, issue.iid, 'Gb first');
    await api.IssueNotes.edit(projectId, issue.iid, note.id, { body: 'Gb first, edited' });
    expect((await api.IssueNotes.show(projectId, issue.iid, note.id)).body).toBe('Gb first, edited');
    await api.IssueNotes.remove(projectId, issue.iid, note.id);
    expect(await api.IssueNotes.all(projectId, issue.iid)).toEqual([]);

    const snip = await api.ProjectSnippets.create(projectId, 'Gb snip', { visibility: 'private', files: [{ file_path: 'a.txt', content: 'x' }] } as never);
    const sn = await api.ProjectSnippetNotes.create(projectId, snip.id, 'Gb snippet note');
    expect((await api.ProjectSnippetNotes.all(projectId, snip.id)).map((n) => [n.id, n.body, n.noteable_type])).toEqual([[sn.id, 'Gb snippet note', 'Snippet']]);

    const mr = await api.MergeRequests.create(projectId, 'gb-notes', 'main', 'Gb MR');
    await api.MergeRequestNotes.create(projectId, mr.iid, 'Gb MR note');
    expect((await api.MergeRequestNotes.all(projectId, mr.iid)).map((n) => n.body)).toEqual(['Gb MR note']);

    const quick = await api.Issues.create(projectId, 'Gb quick');
    const applied = await api.IssueNotes.create(projectId, quick.iid, '/close\n/estimate 2h');
    expect(applied).toMatchObject({ commands_changes: { state_event: 'close', time_estimate: 7200 } });
    expect((await api.Issues.show(quick.iid, { projectId })).state).toBe('closed');
    await api.Issues.edit(projectId, quick.iid, { assigneeIds: [dev.id] });
    const activity = await api.IssueNotes.all(projectId, quick.iid, { activityFilter: 'only_activity', sort: 'asc' } as never);
    expect(activity.map((n) => [n.body, n.system])).toEqual([['added time estimate of 2h', true], ['assigned to @dev', true]]);
  });
});
