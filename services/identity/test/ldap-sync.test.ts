import { randomUUID } from 'node:crypto';
import { startSlapd, Slapd } from '@anvil/testing';
import { ldapSyncConsumer } from '../src/ldap/ldap-sync-consumer';
import { addMember, asOnGroup, events, Identity, makeGroup, makeUser, startIdentity, unique } from './helpers';

let ldap: Slapd;
let svc: Identity;
type User = Awaited<ReturnType<typeof makeUser>>;
/** Anvil users holding an `ldapmain` identity, by directory uid; their usernames differ from the uid. */
const directoryUsers: Record<string, User> = {};

const person = (uid: string) => `dn: uid=${uid},ou=people,${ldap.suffix}\nobjectClass: inetOrgPerson\nuid: ${uid}\ncn: ${uid}\nsn: ${uid}\n`;
const dn = (uid: string) => `uid=${uid},ou=people,${ldap.suffix}`;

beforeAll(async () => {
  ldap = await startSlapd();
  await ldap.add(`dn: ou=people,${ldap.suffix}\nobjectClass: organizationalUnit\nou: people\n\ndn: ou=groups,${ldap.suffix}\nobjectClass: organizationalUnit\nou: groups\n`);
  await ldap.add(['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map(person).join('\n'));
  await ldap.add(
    `dn: cn=devs,ou=groups,${ldap.suffix}\nobjectClass: groupOfNames\ncn: devs\nmember: ${dn('alice')}\nmember: ${dn('dave')}\nmember: ${dn('frank')}\n\n` +
      `dn: cn=ops,ou=groups,${ldap.suffix}\nobjectClass: posixGroup\ncn: ops\ngidNumber: 5000\nmemberUid: bob\nmemberUid: alice\n\n` +
      `dn: cn=qa,ou=groups,${ldap.suffix}\nobjectClass: groupOfNames\ncn: qa\nmember: uid=carol\n`,
  );
  svc = await startIdentity({ LDAP_URL: ldap.url, LDAP_BIND_DN: ldap.rootDn, LDAP_BIND_PASSWORD: ldap.rootPassword, LDAP_BASE: `ou=people,${ldap.suffix}`, LDAP_GROUP_BASE: `ou=groups,${ldap.suffix}` });
  for (const uid of ['alice', 'bob', 'carol', 'dave', 'erin']) {
    // the identity is written as an administrator might type it: other case, spaces after the commas
    const externUid = dn(uid).toUpperCase().replace(/,/g, ', ');
    directoryUsers[uid] = await makeUser(svc, { username: unique(`${uid}.anvil`), provider: 'ldapmain', extern_uid: externUid });
  }
  // frank is in the directory and has its uid as username, but no identity: never matched
  await makeUser(svc, { username: 'frank' });
}, 30_000);
afterAll(async () => {
  await svc?.stop();
  await ldap?.stop();
});

const name = (uid: string) => directoryUsers[uid].username;

/** The group's direct members as [username, level], sorted. */
async function members(groupId: number): Promise<[string, number][]> {
  const rows = (await svc.deps.db('members as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.source_type': 'Namespace', 'm.source_id': groupId }).select('u.username', 'm.access_level')) as { username: string; access_level: number }[];
  return rows.map((r): [string, number] => [r.username, r.access_level]).sort();
}

/** Asks for a sync as `owner` (202) and waits until the asynchronous job has finished it. */
async function sync(owner: User, groupId: number): Promise<void> {
  const res = await (await asOnGroup(svc, owner, groupId)).post(`/api/v4/groups/${groupId}/ldap_sync`).expect(202);
  expect(res.body).toBe(202);
  for (let i = 0; i < 100; i++) {
    const { ldap_sync_status: status, ldap_sync_error: error } = await svc.deps.db('namespaces').where({ id: groupId }).first('ldap_sync_status', 'ldap_sync_error');
    if (status === 'failed') throw new Error(`sync failed: ${error}`);
    if (status === 'ready') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('sync did not finish within 10 s');
}

async function linked(owner: User, groupId: number, body: Record<string, unknown>) {
  await (await asOnGroup(svc, owner, groupId)).post(`/api/v4/groups/${groupId}/ldap_group_links`).send({ provider: 'ldapmain', ...body }).expect(201);
}

describe('POST /groups/:id/ldap_sync', () => {
  describe('as the Owner, against the directory', () => {
    it('adds the users whose ldapmain identity is a member DN, then removes them once they left the group', async () => {
      const owner = await makeUser(svc);
      const { alice, dave } = directoryUsers;
      const group = await makeGroup(svc, owner);
      await linked(owner, group.id, { cn: 'devs', group_access: 30 });
      await sync(owner, group.id);
      expect(await members(group.id)).toEqual([[alice.username, 30], [dave.username, 30], [owner.username, 50]].sort());
      expect(await events(svc, 'identity.membership.created', { source_id: group.id, user_id: alice.id, access_level: 30 })).toHaveLength(1);

      await ldap.modify(`dn: cn=devs,ou=groups,${ldap.suffix}\nchangetype: modify\ndelete: member\nmember: ${dn('alice')}\n`);
      await sync(owner, group.id);
      expect(await members(group.id)).toEqual([[dave.username, 30], [owner.username, 50]].sort());
      expect(await events(svc, 'identity.membership.deleted', { source_id: group.id, user_id: alice.id })).toHaveLength(1);
      await ldap.modify(`dn: cn=devs,ou=groups,${ldap.suffix}\nchangetype: modify\nadd: member\nmember: ${dn('alice')}\n`);
    });

    it('gives the highest level among the links, reads posixGroup memberUid, lone uid RDNs and filters, and updates levels', async () => {
      const owner = await makeUser(svc);
      const { carol } = directoryUsers;
      const group = await makeGroup(svc, owner);
      await addMember(svc, 'groups', group.id, carol, 10);
      await linked(owner, group.id, { cn: 'devs', group_access: 30 });
      await linked(owner, group.id, { cn: 'ops', group_access: 20 });
      await linked(owner, group.id, { filter: '(|(uid=carol)(uid=alice))', group_access: 40 });
      await sync(owner, group.id);
      expect(await members(group.id)).toEqual([[name('alice'), 40], [name('bob'), 20], [name('carol'), 40], [name('dave'), 30], [owner.username, 50]].sort());
      expect(await events(svc, 'identity.membership.updated', { source_id: group.id, user_id: carol.id, access_level: 40 })).toHaveLength(1);

      const qa = await makeGroup(svc, owner);
      await linked(owner, qa.id, { cn: 'qa', group_access: 20 });
      await sync(owner, qa.id);
      expect(await members(qa.id)).toEqual([[name('carol'), 20], [owner.username, 50]].sort());
    });

    it('never touches members without an ldapmain identity, and keeps the last Owner (erin, in no linked group)', async () => {
      const { erin } = directoryUsers;
      const local = await makeUser(svc);
      const group = await makeGroup(svc, erin);
      await addMember(svc, 'groups', group.id, local, 30);
      await linked(erin, group.id, { cn: 'ops', group_access: 20 });
      await sync(erin, group.id);
      expect(await members(group.id)).toEqual([[name('alice'), 20], [name('bob'), 20], [name('erin'), 50], [local.username, 30]].sort());
    });

    it('does not match a directory member to a user by username (frank has no identity)', async () => {
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      await linked(owner, group.id, { filter: '(uid=frank)', group_access: 30 });
      await sync(owner, group.id);
      expect(await members(group.id)).toEqual([[owner.username, 50]]);
    });
  });

  describe('on a subgroup', () => {
    it('never sets a level below the one inherited from an ancestor', async () => {
      const owner = await makeUser(svc);
      const { dave } = directoryUsers;
      const top = await makeGroup(svc, owner);
      const sub = await makeGroup(svc, owner, { parent_id: top.id });
      await addMember(svc, 'groups', top.id, dave, 40);
      await linked(owner, sub.id, { cn: 'devs', group_access: 20 });
      await sync(owner, sub.id);
      expect(await members(sub.id)).toEqual([[name('alice'), 20], [name('dave'), 40], [owner.username, 50]].sort());
    });
  });

  describe('while a sync is running', () => {
    it('answers 202 and queues nothing', async () => {
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      await svc.deps.db('namespaces').where({ id: group.id }).update({ ldap_sync_status: 'started' });
      await (await asOnGroup(svc, owner, group.id)).post(`/api/v4/groups/${group.id}/ldap_sync`).expect(202);
      expect(await events(svc, 'identity.ldap_sync.requested', { group_id: group.id })).toEqual([]);
    });
  });

  describe('when the directory cannot be reached', () => {
    it('marks the sync failed with the error and leaves the members alone', async () => {
      const down = await startIdentity({ LDAP_URL: 'ldap://127.0.0.1:1', LDAP_BASE: ldap.suffix });
      try {
        const owner = await makeUser(down);
        const group = await makeGroup(down, owner);
        await (await asOnGroup(down, owner, group.id)).post(`/api/v4/groups/${group.id}/ldap_group_links`).send({ cn: 'devs', group_access: 30, provider: 'ldapmain' }).expect(201);
        await (await asOnGroup(down, owner, group.id)).post(`/api/v4/groups/${group.id}/ldap_sync`).expect(202);
        let row: { ldap_sync_status: string; ldap_sync_error: string | null } | undefined;
        for (let i = 0; i < 100 && row?.ldap_sync_status !== 'failed'; i++) {
          await new Promise((r) => setTimeout(r, 100));
          row = await down.deps.db('namespaces').where({ id: group.id }).first('ldap_sync_status', 'ldap_sync_error');
        }
        expect(row).toEqual({ ldap_sync_status: 'failed', ldap_sync_error: expect.stringMatching(/ECONNREFUSED|connect/i) });
        expect(await down.deps.db('members').where({ source_type: 'Namespace', source_id: group.id }).count({ n: '*' }).first()).toEqual({ n: '1' });
      } finally {
        await down.stop();
      }
    });
  });

  describe('when a sync was left started (a redelivered request)', () => {
    it('fails it after an hour, so that the next request runs again', async () => {
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      await svc.deps.db('namespaces').where({ id: group.id }).update({ ldap_sync_status: 'started', ldap_sync_last_sync_at: svc.deps.db.raw("now() - interval '2 hours'") });
      const event = { id: randomUUID(), type: 'identity.ldap_sync.requested', occurred_at: new Date().toISOString(), producer: 'identity', version: 1, data: { group_id: group.id, actor_id: owner.id } };
      await ldapSyncConsumer(svc.deps).handler(event);
      expect(await svc.deps.db('namespaces').where({ id: group.id }).first('ldap_sync_status', 'ldap_sync_error')).toEqual({ ldap_sync_status: 'failed', ldap_sync_error: 'The sync took too long to complete.' });
      await sync(owner, group.id);
    });
  });

  describe('as a Maintainer or anonymously', () => {
    it('returns 403 (404 Group Not Found for a private group the caller cannot see)', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const group = await makeGroup(svc, owner, { visibility: 'public' });
      const secret = await makeGroup(svc, owner);
      await addMember(svc, 'groups', group.id, maintainer, 40);
      expect((await (await asOnGroup(svc, maintainer, group.id)).post(`/api/v4/groups/${group.id}/ldap_sync`).expect(403)).body).toEqual({ message: '403 Forbidden' });
      expect((await svc.as({ user: null }).post(`/api/v4/groups/${group.id}/ldap_sync`).expect(403)).body).toEqual({ message: '403 Forbidden' });
      expect((await svc.as({ user: maintainer }).post(`/api/v4/groups/${secret.id}/ldap_sync`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
      expect(await events(svc, 'identity.ldap_sync.requested', { group_id: group.id })).toEqual([]);
    });
  });
});
