import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/**
 * Real clients through the real gateway: python-gitlab and @gitbeaker/rest award emoji on issues,
 * notes and merge requests of a public project, read them anonymously and remove them.
 */
describe('award emoji with real clients through the gateway', () => {
  let fleet: Fleet;
  let dev: { id: number; token: string };
  let guest: { id: number; token: string };
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = (m: string, p: string, b?: unknown) => call(fleet, fleet.adminToken, m, p, b);
    const user = (username: string) => userWithToken(fleet, username);
    dev = await user('emoji-dev');
    guest = await user('emoji-guest');
    const group = await admin('POST', '/groups', { name: 'Emoji', path: 'emoji', visibility: 'public' });
    const project = await admin('POST', '/projects', { name: 'Reactions', path: 'reactions', namespace_id: group.id, visibility: 'public' });
    projectId = project.id;
    await admin('POST', `/projects/${projectId}/members`, { user_id: dev.id, access_level: 30 });
    await admin('POST', `/projects/${projectId}/members`, { user_id: guest.id, access_level: 10 });
    await waitForMembership(guest.token);
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  /** Identity's events reach work-items asynchronously: wait until the guest's award shows its user. */
  async function waitForMembership(token: string): Promise<void> {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const issue = await call(fleet, dev.token, 'POST', `/projects/${projectId}/issues`, { title: 'probe' }).catch(() => null);
      if (issue) {
        const award = await call(fleet, token, 'POST', `/projects/${projectId}/issues/${issue.iid}/award_emoji`, { name: 'eyes' }).catch(() => null);
        await call(fleet, fleet.adminToken, 'DELETE', `/projects/${projectId}/issues/${issue.iid}`);
        if (award?.user?.username === 'emoji-guest') return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('work-items never saw identity’s users');
  }

  it('python-gitlab: alias award, anonymous list, duplicate 404, note and MR awards, deletes', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'award_emoji_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, DEV_TOKEN: dev.token, GUEST_TOKEN: guest.token, PROJECT_ID: String(projectId) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out).toEqual({
      awarded: { name: 'thumbsup', awardable_type: 'Issue', user: 'emoji-guest' },
      upvotes: 1,
      anonymous: ['thumbsup'],
      duplicate: [404, '404 Award Emoji Name has already been taken Not Found'],
      note: [['tada', 'Note']],
      foreign_delete: 401,
      after_delete: [],
      mr_downvotes: 1,
    });
  });

  it('@gitbeaker/rest: award, show, list anonymously and remove on issues, notes and merge requests', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: dev.token });
    const gb = new Gitlab({ host: fleet.url, token: guest.token });
    const anon = new Gitlab({ host: fleet.url });
    const issue = await api.Issues.create(projectId, 'GB emoji');
    const award = await gb.IssueAwardEmojis.award(projectId, issue.iid, ':thumbsup:');
    expect(award).toMatchObject({ name: 'thumbsup', awardable_id: issue.id, awardable_type: 'Issue', url: null });
    expect(await anon.IssueAwardEmojis.show(projectId, issue.iid, award.id)).toEqual(award);
    expect((await anon.IssueAwardEmojis.all(projectId, issue.iid)).map((a) => a.id)).toEqual([award.id]);
    await expect(gb.IssueAwardEmojis.award(projectId, issue.iid, 'not-an-emoji')).rejects.toMatchObject({ cause: { response: { status: 404 } } });

    const note = await api.IssueNotes.create(projectId, issue.iid, 'A note');
    const onNote = await gb.IssueNoteAwardEmojis.award(projectId, issue.iid, note.id, 'rocket');
    expect(onNote).toMatchObject({ name: 'rocket', awardable_type: 'Note', awardable_id: note.id });
    expect((await anon.IssueNoteAwardEmojis.all(projectId, issue.iid, note.id)).map((a) => a.name)).toEqual(['rocket']);
    await gb.IssueNoteAwardEmojis.remove(projectId, issue.iid, note.id, onNote.id);

    const mr = await api.MergeRequests.create(projectId, 'gb-emoji', 'main', 'GB MR');
    const up = await gb.MergeRequestAwardEmojis.award(projectId, mr.iid, 'thumbsup');
    expect((await api.MergeRequests.show(projectId, mr.iid)).upvotes).toBe(1);
    await expect(api.MergeRequestAwardEmojis.remove(projectId, mr.iid, up.id)).rejects.toMatchObject({ cause: { response: { status: 401 } } });
    await gb.MergeRequestAwardEmojis.remove(projectId, mr.iid, up.id);
    expect((await api.MergeRequests.show(projectId, mr.iid)).upvotes).toBe(0);
    await gb.IssueAwardEmojis.remove(projectId, issue.iid, award.id);
    expect(await anon.IssueAwardEmojis.all(projectId, issue.iid)).toEqual([]);
  });
});
