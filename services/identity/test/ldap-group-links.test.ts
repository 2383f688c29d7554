import { addMember, asOnGroup, Identity, makeGroup, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const links = (groupId: number) => `/api/v4/groups/${groupId}/ldap_group_links`;
const stored = (groupId: number) => svc.deps.db('ldap_group_links').where({ group_id: groupId }).orderBy('id').select('cn', 'filter', 'provider', 'group_access', 'member_role_id');

async function ownedGroup() {
  const owner = await makeUser(svc);
  const group = await makeGroup(svc, owner);
  return { owner, group };
}

async function link(groupId: number, body: Record<string, unknown>) {
  const root = await rootActor(svc);
  return svc.as({ user: root }).post(links(groupId)).send(body).expect(201);
}

describe('GET /groups/:id/ldap_group_links', () => {
  describe('as an anonymous caller', () => {
    it('returns 401', async () => {
      const { group } = await ownedGroup();
      expect((await svc.as({ user: null }).get(links(group.id)).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('as a Maintainer', () => {
    it('returns 403', async () => {
      const { group } = await ownedGroup();
      const maintainer = await makeUser(svc);
      await addMember(svc, 'groups', group.id, maintainer, 40);
      expect((await (await asOnGroup(svc, maintainer, group.id)).get(links(group.id)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('for a group that does not exist', () => {
    it('returns 403, as GitLab looks the group up without a visibility check', async () => {
      const user = await makeUser(svc);
      expect((await svc.as({ user }).get(links(999999)).expect(403)).body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('as the Owner', () => {
    it('returns 404 when the group has no links', async () => {
      const { owner, group } = await ownedGroup();
      expect((await (await asOnGroup(svc, owner, group.id)).get(links(group.id)).expect(404)).body).toEqual({ message: 'No linked LDAP groups found' });
    });

    it('lists the links, oldest first', async () => {
      const { owner, group } = await ownedGroup();
      await link(group.id, { cn: 'ldap-group-1', group_access: 10, provider: 'ldapmain' });
      await link(group.id, { filter: '(department=dev)', group_access: 30, provider: 'ldapmain' });
      const res = await (await asOnGroup(svc, owner, group.id)).get(links(group.id)).expect(200);
      expect(res.body).toEqual([
        { cn: 'ldap-group-1', group_access: 10, provider: 'ldapmain', filter: null },
        { cn: null, group_access: 30, provider: 'ldapmain', filter: '(department=dev)' },
      ]);
    });
  });
});

describe('POST /groups/:id/ldap_group_links', () => {
  describe('as the Owner', () => {
    it('links a directory group by cn (201) and stores it', async () => {
      const { owner, group } = await ownedGroup();
      const res = await (await asOnGroup(svc, owner, group.id)).post(links(group.id)).send({ cn: 'ldap-group-1', group_access: 10, provider: 'ldapmain', member_role_id: 7 }).expect(201);
      expect(res.body).toEqual({ cn: 'ldap-group-1', group_access: 10, provider: 'ldapmain', filter: null });
      expect(await stored(group.id)).toEqual([{ cn: 'ldap-group-1', filter: null, provider: 'ldapmain', group_access: 10, member_role_id: null }]);
    });

    it('links a user filter', async () => {
      const { owner, group } = await ownedGroup();
      const res = await (await asOnGroup(svc, owner, group.id)).post(links(group.id)).send({ filter: '(&(objectClass=person)(ou=dev))', group_access: 30, provider: 'ldapmain' }).expect(201);
      expect(res.body).toEqual({ cn: null, group_access: 30, provider: 'ldapmain', filter: '(&(objectClass=person)(ou=dev))' });
    });

    it.each([
      [{ cn: 'a', filter: '(uid=x)', group_access: 10, provider: 'ldapmain' }, 'cn, filter are mutually exclusive'],
      [{ group_access: 10, provider: 'ldapmain' }, 'cn, filter are missing, exactly one parameter must be provided'],
      [{ cn: 'a', group_access: 11, provider: 'ldapmain' }, 'group_access does not have a valid value'],
      [{ cn: 'a', provider: 'ldapmain' }, 'group_access is missing'],
      [{ cn: 'a', group_access: 10 }, 'provider is missing'],
    ])('answers 400 for %j', async (body, error) => {
      const { owner, group } = await ownedGroup();
      expect((await (await asOnGroup(svc, owner, group.id)).post(links(group.id)).send(body).expect(400)).body).toEqual({ error });
      expect(await stored(group.id)).toEqual([]);
    });

    it('answers 409 for a cn already linked for the provider, and for an invalid filter', async () => {
      const { owner, group } = await ownedGroup();
      const client = await asOnGroup(svc, owner, group.id);
      await client.post(links(group.id)).send({ cn: 'dup', group_access: 10, provider: 'ldapmain' }).expect(201);
      expect((await client.post(links(group.id)).send({ cn: 'dup', group_access: 20, provider: 'ldapmain' }).expect(409)).body).toEqual({ message: 'Cn has already been taken' });
      await client.post(links(group.id)).send({ cn: 'dup', group_access: 20, provider: 'ldapsecondary' }).expect(201);
      expect((await client.post(links(group.id)).send({ filter: '(uid=x', group_access: 20, provider: 'ldapmain' }).expect(409)).body).toEqual({ message: 'Filter is invalid' });
    });
  });

  describe('as a Developer', () => {
    it('returns 403 and stores nothing', async () => {
      const { group } = await ownedGroup();
      const dev = await makeUser(svc);
      await addMember(svc, 'groups', group.id, dev, 30);
      expect((await (await asOnGroup(svc, dev, group.id)).post(links(group.id)).send({ cn: 'x', group_access: 10, provider: 'ldapmain' }).expect(403)).body).toEqual({ message: '403 Forbidden' });
      expect(await stored(group.id)).toEqual([]);
    });
  });

  describe('as an administrator who is not a member', () => {
    it('links the group', async () => {
      const { group } = await ownedGroup();
      await link(group.id, { cn: 'admins', group_access: 50, provider: 'ldapmain' });
      expect(await stored(group.id)).toEqual([{ cn: 'admins', filter: null, provider: 'ldapmain', group_access: 50, member_role_id: null }]);
    });
  });
});

describe('DELETE /groups/:id/ldap_group_links/:cn', () => {
  it('deletes the link with that cn for any provider (204), then answers 404', async () => {
    const { owner, group } = await ownedGroup();
    await link(group.id, { cn: 'devs', group_access: 30, provider: 'ldapsecondary' });
    const client = await asOnGroup(svc, owner, group.id);
    await client.delete(`${links(group.id)}/devs`).expect(204);
    expect(await stored(group.id)).toEqual([]);
    expect((await client.delete(`${links(group.id)}/devs`).expect(404)).body).toEqual({ message: 'Linked LDAP group not found' });
  });

  it('returns 403 to a Maintainer', async () => {
    const { group } = await ownedGroup();
    const maintainer = await makeUser(svc);
    await addMember(svc, 'groups', group.id, maintainer, 40);
    await link(group.id, { cn: 'devs', group_access: 30, provider: 'ldapmain' });
    await (await asOnGroup(svc, maintainer, group.id)).delete(`${links(group.id)}/devs`).expect(403);
    expect(await stored(group.id)).toHaveLength(1);
  });
});

describe('DELETE /groups/:id/ldap_group_links/:provider/:cn', () => {
  it('deletes only the link of that provider', async () => {
    const { owner, group } = await ownedGroup();
    await link(group.id, { cn: 'devs', group_access: 30, provider: 'ldapmain' });
    await link(group.id, { cn: 'devs', group_access: 20, provider: 'ldapsecondary' });
    const client = await asOnGroup(svc, owner, group.id);
    await client.delete(`${links(group.id)}/ldapsecondary/devs`).expect(204);
    expect(await stored(group.id)).toEqual([{ cn: 'devs', filter: null, provider: 'ldapmain', group_access: 30, member_role_id: null }]);
    expect((await client.delete(`${links(group.id)}/ldapsecondary/devs`).expect(404)).body).toEqual({ message: 'Linked LDAP group not found' });
  });
});

describe('DELETE /groups/:id/ldap_group_links', () => {
  it('deletes a cn link named in the body and a filter link named in the query', async () => {
    const { owner, group } = await ownedGroup();
    await link(group.id, { cn: 'devs', group_access: 30, provider: 'ldapmain' });
    await link(group.id, { filter: '(ou=ops)', group_access: 20, provider: 'ldapmain' });
    const client = await asOnGroup(svc, owner, group.id);
    await client.delete(links(group.id)).send({ cn: 'devs', provider: 'ldapmain' }).expect(204);
    await client.delete(`${links(group.id)}?filter=${encodeURIComponent('(ou=ops)')}&provider=ldapmain`).expect(204);
    expect(await stored(group.id)).toEqual([]);
  });

  it.each([
    [{ cn: 'devs', filter: '(ou=ops)', provider: 'ldapmain' }, 'cn, filter are mutually exclusive'],
    [{ provider: 'ldapmain' }, 'cn, filter are missing, exactly one parameter must be provided'],
    [{ cn: 'devs' }, 'provider is missing'],
  ])('answers 400 for %j', async (body, error) => {
    const { owner, group } = await ownedGroup();
    expect((await (await asOnGroup(svc, owner, group.id)).delete(links(group.id)).send(body).expect(400)).body).toEqual({ error });
  });

  it('answers 404 when no link of that provider matches', async () => {
    const { owner, group } = await ownedGroup();
    await link(group.id, { cn: 'devs', group_access: 30, provider: 'ldapmain' });
    expect((await (await asOnGroup(svc, owner, group.id)).delete(links(group.id)).send({ cn: 'devs', provider: 'other' }).expect(404)).body).toEqual({ message: 'Linked LDAP group not found' });
  });
});

describe('POST /groups/:id/ldap_sync', () => {
  describe('when LDAP is not configured', () => {
    it('returns 404 for any group, before looking it up', async () => {
      const { owner, group } = await ownedGroup();
      expect((await (await asOnGroup(svc, owner, group.id)).post(`/api/v4/groups/${group.id}/ldap_sync`).expect(404)).body).toEqual({ message: '404 Not Found' });
      expect((await svc.as({ user: owner }).post('/api/v4/groups/999999/ldap_sync').expect(404)).body).toEqual({ message: '404 Not Found' });
    });
  });
});
