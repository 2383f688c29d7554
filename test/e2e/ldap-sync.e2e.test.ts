import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Fleet, Slapd, startFleet, startSlapd } from '@anvil/testing';
import { client } from './http';

/**
 * LDAP group links and LDAP group sync through the real gateway, with identity syncing against a
 * real slapd over RabbitMQ: python-gitlab links a directory group and asks for a sync; the user
 * whose `ldapmain` identity is the member's DN appears (a user whose username is merely the
 * member's uid does not), and once removed from the directory group a second sync removes them.
 */
describe('LDAP group sync through the gateway', () => {
  let ldap: Slapd;
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let groupId: number;

  beforeAll(async () => {
    ldap = await startSlapd();
    const s = ldap.suffix;
    await ldap.add(`dn: ou=people,${s}\nobjectClass: organizationalUnit\nou: people\n\ndn: ou=groups,${s}\nobjectClass: organizationalUnit\nou: groups\n`);
    await ldap.add(['alice', 'bob'].map((u) => `dn: uid=${u},ou=people,${s}\nobjectClass: inetOrgPerson\nuid: ${u}\ncn: ${u}\nsn: ${u}\n`).join('\n'));
    await ldap.add(`dn: cn=devs,ou=groups,${s}\nobjectClass: groupOfNames\ncn: devs\nmember: uid=alice,ou=people,${s}\nmember: uid=bob,ou=people,${s}\n`);
    fleet = await startFleet({
      services: ['identity'],
      env: { LDAP_URL: ldap.url, LDAP_BIND_DN: ldap.rootDn, LDAP_BIND_PASSWORD: ldap.rootPassword, LDAP_BASE: `ou=people,${s}`, LDAP_GROUP_BASE: `ou=groups,${s}` },
    });
    const admin = client(fleet.url, fleet.adminToken);
    const o = await admin.post('/users', { username: 'ldapowner', name: 'Owner', email: 'ldapowner@example.com', password: 'Sup3r-secret-pw!', skip_confirmation: true });
    const alice = { username: 'alice.smith', name: 'Alice', email: 'alice@example.com', provider: 'ldapmain', extern_uid: `UID=alice, OU=people, ${s.toUpperCase()}` };
    expect((await admin.post('/users', { ...alice, password: 'Sup3r-secret-pw!', skip_confirmation: true })).status).toBe(201);
    await admin.post('/users', { username: 'bob', name: 'Bob', email: 'bob@example.com', password: 'Sup3r-secret-pw!', skip_confirmation: true });
    const t = await admin.post(`/users/${o.body.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });
    owner = { id: o.body.id, token: t.body.token };
    const g = await client(fleet.url, owner.token).post('/groups', { name: 'Directory', path: 'directory' });
    expect(g.status).toBe(201);
    groupId = g.body.id;
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
    await ldap?.stop();
  });

  it('python-gitlab: links, sync, member added, link deleted', () => {
    const r = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python', 'ldap_client.py')], {
      env: { ...process.env, ANVIL_URL: fleet.url, OWNER_TOKEN: owner.token, GROUP_ID: String(groupId), MEMBER: 'alice.smith' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(`python-gitlab failed (${r.status}): ${r.stderr}\n${r.stdout}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string);
    expect(out.listed).toEqual([
      { cn: 'devs', group_access: 30, provider: 'ldapmain', filter: null },
      { cn: null, group_access: 10, provider: 'ldapmain', filter: '(uid=nobody)' },
    ]);
    expect(out.members).toEqual([['alice.smith', 30], ['ldapowner', 50]]);
    expect(out.after_delete).toEqual(['devs']);
  }, 90_000);

  it('a second sync removes a member who left the directory group', async () => {
    await ldap.modify(`dn: cn=devs,ou=groups,${ldap.suffix}\nchangetype: modify\ndelete: member\nmember: uid=alice,ou=people,${ldap.suffix}\n`);
    const api = client(fleet.url, owner.token);
    let names: string[] = [];
    for (let i = 0; i < 100; i++) {
      // asked again every second: a request while the previous sync is still finishing queues nothing
      if (i % 10 === 0) expect((await api.post(`/groups/${groupId}/ldap_sync`)).status).toBe(202);
      names = (await api.get(`/groups/${groupId}/members`)).body.map((m: { username: string }) => m.username);
      if (!names.includes('alice.smith')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(names).toEqual(['ldapowner']);
  });

  it('answers 401 to anonymous callers and 403 for a group that does not exist, as GitLab does', async () => {
    expect((await client(fleet.url).get(`/groups/${groupId}/ldap_group_links`)).status).toBe(401);
    const missing = await client(fleet.url, owner.token).get('/groups/999999/ldap_group_links');
    expect([missing.status, missing.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('@gitbeaker/rest: GroupLDAPLinks add, all, sync and remove', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gitlab } = require('@gitbeaker/rest') as typeof import('@gitbeaker/rest');
    const api = new Gitlab({ host: fleet.url, token: owner.token });
    expect(await api.GroupLDAPLinks.add(groupId, 20, 'ldapmain', { cn: 'ops' })).toEqual({ cn: 'ops', group_access: 20, provider: 'ldapmain', filter: null });
    const links = async () => ((await api.GroupLDAPLinks.all(groupId, {})) as unknown as { cn: string | null; filter: string | null }[]).map((l) => [l.cn, l.filter]);
    expect(await links()).toEqual([['devs', null], ['ops', null]]);
    await api.GroupLDAPLinks.sync(groupId);
    await api.GroupLDAPLinks.remove(groupId, 'ldapmain', { cn: 'ops' });
    expect(await links()).toEqual([['devs', null]]);
  });
});
