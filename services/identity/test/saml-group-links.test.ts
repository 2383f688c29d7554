import type { Actor } from '@anvil/auth';
import { addMember, asOnGroup, events, Identity, makeGroup, makeUser, rootActor, startIdentity } from './helpers';

let svc: Identity;
let owner: Actor;
let maintainer: Actor;
let root: Actor;
beforeAll(async () => {
  svc = await startIdentity();
  owner = await makeUser(svc);
  maintainer = await makeUser(svc);
  root = await rootActor(svc);
});
afterAll(async () => svc?.stop());

const as = (user: Actor | null, id: number) => asOnGroup(svc, user, id);
const url = (id: number, name?: string) => `/api/v4/groups/${id}/saml_group_links${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;

async function group(attrs: Record<string, unknown> = {}) {
  const g = await makeGroup(svc, owner, attrs);
  await addMember(svc, 'groups', g.id, maintainer, 40);
  return g;
}

async function link(groupId: number, body: Record<string, unknown>) {
  return (await (await as(owner, groupId)).post(url(groupId)).send(body).expect(201)).body;
}

describe('GET /groups/:id/saml_group_links', () => {
  it('lists a group’s links, oldest first, to an Owner and an administrator', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'devs', access_level: 30 });
    await link(g.id, { saml_group_name: 'leads', access_level: 40, member_role_id: 7, provider: 'saml_okta' });
    const expected = [
      { name: 'devs', access_level: 30, member_role_id: null, provider: null },
      { name: 'leads', access_level: 40, member_role_id: 7, provider: 'saml_okta' },
    ];
    expect((await (await as(owner, g.id)).get(url(g.id)).expect(200)).body).toEqual(expected);
    expect((await svc.as({ user: root }).get(url(g.id)).expect(200)).body).toEqual(expected);
  });

  it('returns an empty list for a group without links', async () => {
    const g = await group();
    expect((await (await as(owner, g.id)).get(url(g.id)).expect(200)).body).toEqual([]);
  });

  it('answers 401 to anonymous callers and to members below Owner, 404 to a stranger of a private group', async () => {
    const g = await group();
    const stranger = await makeUser(svc);
    expect((await (await as(null, g.id)).get(url(g.id)).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await (await as(maintainer, g.id)).get(url(g.id)).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await svc.as({ user: stranger }).get(url(g.id)).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id/saml_group_links/:saml_group_name', () => {
  it('returns one link by name', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'Dev Ops', access_level: 20 });
    expect((await (await as(owner, g.id)).get(url(g.id, 'Dev Ops')).expect(200)).body).toEqual({ name: 'Dev Ops', access_level: 20, member_role_id: null, provider: null });
  });

  it('returns 404 Not Found for an unknown name', async () => {
    const g = await group();
    expect((await (await as(owner, g.id)).get(url(g.id, 'nobody')).expect(404)).body).toEqual({ message: '404 Not Found' });
  });

  it('asks for a provider when several links share the name (422), and picks by provider', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'ops', access_level: 20, provider: 'saml_a' });
    await link(g.id, { saml_group_name: 'ops', access_level: 30, provider: 'saml_b' });
    expect((await (await as(owner, g.id)).get(url(g.id, 'ops')).expect(422)).body).toEqual({ message: 'Multiple group links found with the same name. Please specify a provider parameter to disambiguate.' });
    expect((await (await as(owner, g.id)).get(`${url(g.id, 'ops')}?provider=saml_b`).expect(200)).body).toEqual({ name: 'ops', access_level: 30, member_role_id: null, provider: 'saml_b' });
    expect((await (await as(owner, g.id)).get(`${url(g.id, 'ops')}?provider=saml_c`).expect(404)).body).toEqual({ message: '404 Not Found' });
  });

  it('answers 401 to a Maintainer', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'devs', access_level: 30 });
    expect((await (await as(maintainer, g.id)).get(url(g.id, 'devs')).expect(401)).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('POST /groups/:id/saml_group_links', () => {
  it('creates a link (201), stripping the name, and publishes identity.saml_group_link.created', async () => {
    const g = await group();
    const body = await link(g.id, { saml_group_name: '  devs  ', access_level: 30, provider: ' ' });
    expect(body).toEqual({ name: 'devs', access_level: 30, member_role_id: null, provider: null });
    const row = await svc.deps.db('saml_group_links').where({ namespace_id: g.id }).first();
    expect(row).toMatchObject({ saml_group_name: 'devs', access_level: 30, member_role_id: null, provider: null });
    expect((await events(svc, 'identity.saml_group_link.created', { group_id: g.id })).map((e) => e.data)).toEqual([
      { id: row.id, group_id: g.id, saml_group_name: 'devs', access_level: 30, member_role_id: null, provider: null, actor_id: owner.id },
    ]);
  });

  it('links a subgroup too, and lets an administrator create', async () => {
    const parent = await group();
    const sub = await makeGroup(svc, owner, { parent_id: parent.id });
    await link(sub.id, { saml_group_name: 'devs', access_level: 10 });
    await svc.as({ user: root }).post(url(sub.id)).send({ saml_group_name: 'admins', access_level: 50 }).expect(201);
  });

  it('returns 400 for a name already linked with the same provider', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'devs', access_level: 30 });
    expect((await (await as(owner, g.id)).post(url(g.id)).send({ saml_group_name: 'devs', access_level: 40 }).expect(400)).body).toEqual({ message: 'Saml group name has already been taken' });
    await link(g.id, { saml_group_name: 'devs', access_level: 40, provider: 'saml_okta' });
  });

  it('returns 400 for missing, blank and invalid values', async () => {
    const g = await group();
    const post = async (body: Record<string, unknown>) => (await (await as(owner, g.id)).post(url(g.id)).send(body).expect(400)).body;
    expect(await post({})).toEqual({ error: 'saml_group_name, access_level are missing' });
    expect(await post({ saml_group_name: 'x', access_level: 35 })).toEqual({ error: 'access_level does not have a valid value' });
    expect(await post({ saml_group_name: 'x', access_level: 'dev' })).toEqual({ error: 'access_level is invalid' });
    expect(await post({ saml_group_name: '   ', access_level: 30 })).toEqual({ message: "Saml group name can't be blank" });
    expect(await post({ saml_group_name: 'x', access_level: 5 })).toEqual({ message: 'Access level is invalid' });
    expect(await post({ saml_group_name: 'x'.repeat(256), access_level: 30 })).toEqual({ message: 'Saml group name is too long (maximum is 255 characters)' });
  });

  it('answers 401 to anonymous callers and to a Maintainer', async () => {
    const g = await group();
    expect((await (await as(null, g.id)).post(url(g.id)).send({ saml_group_name: 'x', access_level: 30 }).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await (await as(maintainer, g.id)).post(url(g.id)).send({ saml_group_name: 'x', access_level: 30 }).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect(await svc.deps.db('saml_group_links').where({ namespace_id: g.id })).toEqual([]);
  });
});

describe('DELETE /groups/:id/saml_group_links/:saml_group_name', () => {
  it('deletes the link (204) and publishes identity.saml_group_link.deleted', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'devs', access_level: 30 });
    await (await as(owner, g.id)).delete(url(g.id, 'devs')).expect(204);
    expect(await svc.deps.db('saml_group_links').where({ namespace_id: g.id })).toEqual([]);
    expect(await events(svc, 'identity.saml_group_link.deleted', { group_id: g.id, saml_group_name: 'devs', actor_id: owner.id })).toHaveLength(1);
    expect((await (await as(owner, g.id)).delete(url(g.id, 'devs')).expect(404)).body).toEqual({ message: '404 Not Found' });
  });

  it('needs a provider when several links share the name', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'ops', access_level: 20 });
    await link(g.id, { saml_group_name: 'ops', access_level: 30, provider: 'saml_b' });
    expect((await (await as(owner, g.id)).delete(url(g.id, 'ops')).expect(422)).body.message).toMatch(/^Multiple group links found/);
    await (await as(owner, g.id)).delete(`${url(g.id, 'ops')}?provider=`).expect(204);
    expect((await (await as(owner, g.id)).get(url(g.id)).expect(200)).body).toEqual([{ name: 'ops', access_level: 30, member_role_id: null, provider: 'saml_b' }]);
  });

  it('answers 401 to a Maintainer and lets an administrator delete', async () => {
    const g = await group();
    await link(g.id, { saml_group_name: 'devs', access_level: 30 });
    expect((await (await as(maintainer, g.id)).delete(url(g.id, 'devs')).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    await svc.as({ user: root }).delete(url(g.id, 'devs')).expect(204);
  });
});
