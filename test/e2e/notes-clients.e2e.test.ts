import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';

async function call(fleet: Fleet, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${fleet.url}/api/v4${p}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * python-gitlab through the real gateway on issue, merge request and epic notes: create, list,
 * get, edit, delete, internal notes for a Developer and a Guest, and anonymous callers refused.
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
    const user = async (username: string) => {
      const u = await admin('POST', '/users', { username, name: username, email: `${username}@example.com`, password: 'Sup3r-secret-pw!', skip_confirmation: true });
      const t = await admin('POST', `/users/${u.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });
      return { id: u.id as number, token: t.token as string };
    };
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
  });
});
