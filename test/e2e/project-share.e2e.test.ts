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
 * Project sharing through the real gateway with python-gitlab and gitbeaker: a private project
 * (and its issues, through the gateway's resolution) becomes readable to a member of group B once
 * the project is shared with B, at the lower of both levels, and unreadable again when the share
 * is removed or has expired.
 */
describe('project share through the gateway', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let member: { id: number; token: string };
  let groupB: number;
  let projectId: number;

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity', 'work-items'] });
    const admin = async (m: string, p: string, b?: unknown) => {
      const r = await call(fleet, fleet.adminToken, m, p, b);
      if (r.status >= 400) throw new Error(`${m} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    owner = await userWithToken(fleet, 'projsharer');
    member = await userWithToken(fleet, 'projinvitee');
    const groupA = (await admin('POST', '/groups', { name: 'Home', path: 'home', visibility: 'private' })).id;
    groupB = (await admin('POST', '/groups', { name: 'Guests', path: 'guests', visibility: 'private' })).id;
    projectId = (await admin('POST', '/projects', { name: 'Ledger', path: 'ledger', namespace_id: groupA, visibility: 'private' })).id;
    await admin('POST', `/groups/${groupA}/members`, { user_id: owner.id, access_level: 40 });
    await admin('POST', `/groups/${groupB}/members`, { user_id: owner.id, access_level: 10 });
    await admin('POST', `/groups/${groupB}/members`, { user_id: member.id, access_level: 40 });
    await eventually(async () => (await call(fleet, fleet.adminToken, 'POST', `/projects/${projectId}/issues`, { title: 'Books' })).status === 201, 'work-items knows the project');
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const memberSees = async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}`)).status === 200;
  const memberDoesNotSee = async () => (await call(fleet, member.token, 'GET', `/projects/${projectId}`)).status === 404;

  function python(action: 'share' | 'unshare') {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'project_share_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, OWNER_TOKEN: owner.token, MEMBER_TOKEN: member.token, PROJECT_ID: String(projectId), INVITED_GROUP_ID: String(groupB), ACTION: action },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    return JSON.parse(r.stdout.trim().split('\n').pop() as string);
  }

  it('python-gitlab: project.share lets B’s member read the project and its issues as a Developer, project.unshare hides it again', async () => {
    expect(await memberDoesNotSee()).toBe(true);
    const shared = python('share');
    expect(shared).toEqual({ shared_with_groups: [{ group_id: groupB, group_name: 'Guests', group_full_path: 'guests', group_access_level: 30, expires_at: null }], shared_projects: [projectId] });
    await eventually(memberSees, 'the member reads the project after the share');
    const issues = await call(fleet, member.token, 'GET', `/projects/${projectId}/issues`);
    expect([issues.status, issues.body.map((i: { title: string }) => i.title)]).toEqual([200, ['Books']]);
    expect((await call(fleet, member.token, 'GET', '/projects?min_access_level=30')).body.map((p: { id: number }) => p.id)).toEqual([projectId]);
    // Developer, not Maintainer: the share caps the member's Maintainer role in B
    expect((await call(fleet, member.token, 'PUT', `/projects/${projectId}`, { description: 'mine now' })).status).toBe(403);

    expect(python('unshare')).toEqual({ shared_with_groups: [], shared_projects: [] });
    await eventually(memberDoesNotSee, 'the project is hidden after the unshare');
    expect((await call(fleet, member.token, 'GET', `/projects/${projectId}/issues`)).status).toBe(404);
  });

  it('gitbeaker: Projects.share, then the share expires (set in the past in the database) and Projects.unshare', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: owner.token });
    const link = await api.Projects.share(projectId, groupB, 20, { expiresAt: '2999-12-31' });
    expect(link).toEqual({ id: expect.any(Number), project_id: projectId, group_id: groupB, group_access: 20, expires_at: '2999-12-31' });
    await eventually(memberSees, 'the member reads the project after the share');
    const memberApi = new Gitlab({ host: fleet.url, token: member.token });
    expect((await memberApi.Groups.allSharedProjects(groupB)).map((p) => p.id)).toEqual([projectId]);

    const db = createDb({ url: testDatabaseUrl(), schema: fleet.schemas.identity });
    try {
      await db('project_group_links').where({ project_id: projectId, group_id: groupB }).update({ expires_at: '2020-01-01' });
    } finally {
      await db.destroy();
    }
    await eventually(memberDoesNotSee, 'the project is hidden once the share has expired');

    await api.Projects.unshare(projectId, groupB);
    expect((await api.Projects.show(projectId)).shared_with_groups).toEqual([]);
  });
});
