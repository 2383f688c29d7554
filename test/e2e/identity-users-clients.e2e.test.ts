import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, startFleet } from '@anvil/testing';
import { call, userWithToken } from './support/fleet-api';

/**
 * python-gitlab and gitbeaker through the real gateway on users and e-mail addresses: an
 * administrator edits a user and their identity and manages their addresses; a user manages
 * their own addresses; a taken address is refused with GitLab's body.
 */
describe('users and e-mails with real clients through the gateway', () => {
  let fleet: Fleet;
  const user = (username: string) => userWithToken(fleet, username);

  beforeAll(async () => {
    fleet = await startFleet({ services: ['identity'] });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('python-gitlab: edit a user, find them by identity, manage their and one\'s own addresses', async () => {
    const u = await user('pyuser');
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'users_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, ADMIN_TOKEN: fleet.adminToken, USER_TOKEN: u.token, USER_ID: String(u.id) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out).toEqual({
      edited: ['Py bio', 'Py org'],
      by_identity: [u.id],
      admin_added_confirmed: true,
      admin_list: ['py-admin-added@example.com'],
      admin_after_delete: [],
      own: ['py-own@example.com', null],
      own_get: 'py-own@example.com',
      duplicate: [400, { email: ['has already been taken'] }],
      own_after_delete: [],
    });
  });

  it('gitbeaker: edit a user, manage their and one\'s own addresses', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const u = await user('gbuser');
    const admin = new Gitlab({ host: fleet.url, token: fleet.adminToken });
    const mine = new Gitlab({ host: fleet.url, token: u.token });
    const edited = await admin.Users.edit(u.id, { bio: 'Gb bio', location: 'Gb town' } as never);
    expect([edited.bio, edited.location]).toEqual(['Gb bio', 'Gb town']);

    const added = await admin.UserEmails.add('gb-admin@example.com', { userId: u.id, skipConfirmation: true });
    expect(added.confirmed_at).not.toBeNull();
    expect((await admin.UserEmails.all({ userId: u.id })).map((e) => e.email)).toEqual(['gb-admin@example.com']);
    await admin.UserEmails.remove(added.id as number, { userId: u.id });
    expect(await admin.UserEmails.all({ userId: u.id })).toEqual([]);

    const own = await mine.UserEmails.add('gb-own@example.com');
    expect([own.email, own.confirmed_at]).toEqual(['gb-own@example.com', null]);
    expect((await mine.UserEmails.show(own.id as number)).email).toBe('gb-own@example.com');
    await expect(mine.UserEmails.add('gbuser@example.com')).rejects.toMatchObject({ cause: { response: { status: 400 } } });
    await mine.UserEmails.remove(own.id as number);
    expect(await mine.UserEmails.all()).toEqual([]);
  });

  it('refuses a non-administrator\'s PUT /users/:id with 403 and an anonymous one with 401', async () => {
    const u = await user('plain');
    const res = await fetch(`${fleet.url}/api/v4/users/${u.id}`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': u.token, 'content-type': 'application/json' }, body: '{"bio":"x"}' });
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden' }]);
    const anon = await fetch(`${fleet.url}/api/v4/user/emails`);
    expect(anon.status).toBe(401);
  });
});
