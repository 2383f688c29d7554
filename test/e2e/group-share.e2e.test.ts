import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createDb } from '@anvil/db';
import { Fleet, startFleet, testDatabaseUrl } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';

async function call(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Polls `check` until it holds (the gateway caches resolutions for a few seconds). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never: ${what}`);
}

/**
 * Group sharing through the real gateway with python-gitlab and gitbeaker: a private project of
 * group A (and its issues, through the gateway's resolution) becomes readable to a member of group
 * B once A is shared with B, and unreadable again when the share is removed or has expired.
 */
describe('group share through the gateway', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let member: { id: number; token: string };
  let groupA: number;
  let groupB: number;
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = async (m: string, p: string, b?: unknown) => {
      const r = await call(fleet, fleet.adminToken, m, p, b);
      if (r.status >= 400) throw new Error(`${m} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const user = (username: string) => userWithToken(fleet, username);
    owner = await user('sharer');
    member = await user('invitee');
    groupA = (await admin('POST', '/groups', { name: 'Alpha', path: 'alpha', visibility: 'private' })).id;
    groupB = (await admin('POST', '/groups', { name: 'Beta', path: 'beta', visibility: 'private' })).id;
    projectId = (await admin('POST', '/projects', { name: 'Vault', path: 'vault', namespace_id: groupA, visibility: 'private' })).id;
    await admin('POST', `/groups/${groupA}/members`, { user_id: owner.id, access_level: 50 });
    await admin('POST', `/groups/${groupB}/members`, { user_id: owner.id, access_level: 10 });
    await admin('POST', `/groups/${groupB}/members`, { user_id: member.id, access_level: 30 });
    await eventually(async () => (await call(fleet, fleet.adminToken, 'POST', `/projects/${projectId}/issues`, { title: 'Locked away' })).status === 201, 'work-items knows the project');
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const memberSees = async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}`)).status === 200;
  const memberDoesNotSee = async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}`)).status === 404;

  function python(action: 'share' | 'unshare') {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'group_share_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, OWNER_TOKEN: owner.token, GROUP_ID: String(groupA), INVITED_GROUP_ID: String(groupB), ACTION: action },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    return JSON.parse(r.stdout.trim().split('\n').pop() as string);
  }

  it('python-gitlab: group.share makes A’s private project visible to B’s member, group.unshare hides it again', async () => {
    expect(await memberDoesNotSee()).toBe(true);
    const shared = python('share');
    expect(shared.shared_with_groups).toEqual([{ group_id: groupB, group_name: 'Beta', group_full_path: 'beta', group_access_level: 20, expires_at: null }]);
    await eventually(memberSees, 'the member reads the project after the share');
    const listed = await call(fleet, member.token, 'GET', '/projects?membership=true');
    expect(listed.body.map((p: { id: number }) => p.id)).toEqual([projectId]);
    expect((await call(fleet, member.token, 'GET', '/groups/alpha')).status).toBe(200);
    const issues = await call(fleet, member.token, 'GET', `/projects/${projectId}/issues`);
    expect([issues.status, issues.body.map((i: { title: string }) => i.title)]).toEqual([200, ['Locked away']]);

    expect(python('unshare').shared_with_groups).toEqual([]);
    await eventually(memberDoesNotSee, 'the project is hidden after the unshare');
    expect((await call(fleet, member.token, 'GET', `/projects/${projectId}/issues`)).status).toBe(404);
    expect((await call(fleet, member.token, 'GET', '/projects?membership=true')).body).toEqual([]);
  });

  it('gitbeaker: Groups.share, then the share expires (set in the past in the database) and Groups.unshare', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: owner.token });
    const group = await api.Groups.share(groupA, groupB, 30, { expiresAt: '2999-12-31' });
    expect(group.shared_with_groups).toEqual([{ group_id: groupB, group_name: 'Beta', group_full_path: 'beta', group_access_level: 30, expires_at: '2999-12-31' }]);
    await eventually(memberSees, 'the member reads the project after the share');

    const db = createDb({ url: testDatabaseUrl(), schema: fleet.schemas.identity });
    try {
      await db('group_group_links').where({ shared_group_id: groupA, shared_with_group_id: groupB }).update({ expires_at: '2020-01-01' });
    } finally {
      await db.destroy();
    }
    await eventually(memberDoesNotSee, 'the project is hidden once the share has expired');
    expect((await call(fleet, member.token, 'GET', `/groups/${groupA}`)).status).toBe(404);

    await api.Groups.unshare(groupA, groupB, {});
    expect((await api.Groups.show(groupA)).shared_with_groups).toEqual([]);
  });
});
