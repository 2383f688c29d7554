import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { client } from './http';
import { userWithToken } from './support/fleet-api';

/** Runs a python-gitlab script without blocking this process (the hook receiver answers from it). */
function runPython(script: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/python3', [path.join(__dirname, 'python', script)], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

/**
 * Group hooks managed by real clients through the gateway: python-gitlab and @gitbeaker/rest
 * create, edit, list, test and delete a group's hooks; the tests reach a receiver on loopback
 * (local requests allowed through `PUT /application/settings`).
 */
describe('group hooks with python-gitlab and gitbeaker', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let groupId: number;
  const received: Received[] = [];
  let hookUrl = '';
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(data || '{}') });
      res.writeHead(200).end('ok');
    });
  });

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    fleet = await startFleet({ services: ['identity'] });
    const admin = client(fleet.url, fleet.adminToken);
    expect((await admin.put('/application/settings', { allow_local_requests_from_web_hooks_and_services: true })).status).toBe(200);
    owner = await userWithToken(fleet, 'hookowner');
    const api = client(fleet.url, owner.token);
    groupId = (await api.post('/groups', { name: 'Hooks', path: 'hooks' })).body.id;
    expect((await api.post('/projects', { name: 'App', path: 'app', namespace_id: groupId })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await new Promise((r) => server.close(r));
  });

  it('python-gitlab: create, edit, list, test and delete a group hook', async () => {
    const r = await runPython('group_hooks_client.py', { ANVIL_URL: fleet.url, OWNER_TOKEN: owner.token, GROUP_ID: String(groupId), HOOK_URL: hookUrl });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out).toEqual({
      created: { url: hookUrl, issues_events: true, push_events: false, has_token: false },
      edited: { url: `${hookUrl}?edited=1`, note_events: true, issues_events: true },
      listed: [expect.any(Number)],
      test: { message: '201 Created' },
      test_notes: [422, 'Testing not available for this hook'],
      after_delete: 404,
    });
    const push = received.find((x) => x.headers['x-gitlab-event'] === 'Push Hook');
    // the URL changed without a token: the test request carries none, as GitLab's
    expect(push && { url: push.url, token: push.headers['x-gitlab-token'], kind: push.body.object_kind }).toEqual({ url: '/hook?edited=1', token: undefined, kind: 'push' });
  });

  it('@gitbeaker/rest: GroupHooks add, edit, all, show, test and remove', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: owner.token });
    const hook = await api.GroupHooks.add(groupId, hookUrl, { token: 'gb-secret', pushEvents: false, tagPushEvents: true });
    expect(hook).toMatchObject({ url: hookUrl, push_events: false, tag_push_events: true, group_id: groupId });
    const edited = await api.GroupHooks.edit(groupId, hook.id, hookUrl, { token: 'gb-secret', subgroupEvents: true });
    expect(edited).toMatchObject({ id: hook.id, subgroup_events: true, tag_push_events: true });
    expect((await api.GroupHooks.all(groupId)).map((h) => h.id)).toEqual([hook.id]);
    expect(await api.GroupHooks.show(groupId, hook.id)).toMatchObject({ id: hook.id, url: hookUrl });
    expect(await api.requester.post(`groups/${groupId}/hooks/${hook.id}/test/tag_push_events`, {})).toMatchObject({ body: { message: '201 Created' } });
    const tag = received.find((x) => x.headers['x-gitlab-event'] === 'Tag Push Hook');
    expect(tag?.headers['x-gitlab-token']).toBe('gb-secret');
    await api.GroupHooks.remove(groupId, hook.id);
    await expect(api.GroupHooks.show(groupId, hook.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
