import { INTERNAL_TOKEN_HEADER } from '@anvil/auth';
import { addMember, Identity, internal, makeGroup, makeProject, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

async function tokenFor(userId: number, body: Record<string, unknown> = {}) {
  const root = await rootActor(svc);
  const res = await svc.as({ user: root }).post(`/api/v4/users/${userId}/personal_access_tokens`).send({ name: 't', scopes: ['api', 'read_registry'], ...body }).expect(201);
  return res.body as { id: number; token: string };
}

const today = () => new Date().toISOString().slice(0, 10);

describe('the internal API', () => {
  it('refuses calls without the shared service token', async () => {
    const missing = await svc.raw().post('/internal/v1/tokens/resolve').send({ token: 'x' }).expect(401);
    expect(missing.body).toEqual({ message: '401 Unauthorized' });
    const wrong = await svc.raw().get('/internal/v1/users/lookup?ref=root').set(INTERNAL_TOKEN_HEADER, 'wrong').expect(401);
    expect(wrong.body).toEqual({ message: '401 Unauthorized' });
  });

  it('has no password-check route', async () => {
    const res = await internal(svc).post('/v1/users/authenticate').send({ login: 'root', password: 'x' }).expect(404);
    expect(res.body).toEqual({ error: '404 Not Found' });
  });
});

describe('POST /internal/v1/tokens/resolve', () => {
  it('resolves a token to its user, scopes and id, and records use once a minute', async () => {
    const u = await makeUser(svc);
    const t = await tokenFor(u.id, { expires_at: '2999-12-31' });
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(200);
    expect(res.body).toEqual({ user: { id: u.id, username: u.username, name: u.name, admin: false, state: 'active' }, scopes: ['api', 'read_registry'], token_id: t.id, expires_at: '2999-12-31' });
    const first = (await svc.deps.db('personal_access_tokens').where({ id: t.id }).first()).last_used_at;
    expect(first).not.toBeNull();
    await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(200);
    expect((await svc.deps.db('personal_access_tokens').where({ id: t.id }).first()).last_used_at).toEqual(first);
  });

  it('resolves by token id and user id, and refuses a mismatched user', async () => {
    const u = await makeUser(svc);
    const other = await makeUser(svc);
    const t = await tokenFor(u.id);
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token_id: t.id, user_id: u.id }).expect(200);
    expect(res.body.user.id).toBe(u.id);
    const bad = await internal(svc).post('/v1/tokens/resolve').send({ token_id: t.id, user_id: other.id }).expect(401);
    expect(bad.body).toEqual({ error: 'unknown' });
  });

  it('answers unknown for a token that does not exist', async () => {
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: 'glpat-doesnotexist' }).expect(401);
    expect(res.body).toEqual({ error: 'unknown' });
  });

  it('answers expired from the expiry date on (UTC), and accepts it the day before', async () => {
    const u = await makeUser(svc);
    const t = await tokenFor(u.id, { expires_at: today() });
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(401);
    expect(res.body).toEqual({ error: 'expired' });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const ok = await tokenFor(u.id, { expires_at: tomorrow });
    await internal(svc).post('/v1/tokens/resolve').send({ token: ok.token }).expect(200);
  });

  it('answers blocked for a blocked user', async () => {
    const u = await makeUser(svc);
    const t = await tokenFor(u.id);
    await svc.deps.db('users').where({ id: u.id }).update({ state: 'blocked' });
    const res = await internal(svc).post('/v1/tokens/resolve').send({ token: t.token }).expect(401);
    expect(res.body).toEqual({ error: 'blocked' });
  });

  it('answers 400 without a token', async () => {
    const res = await internal(svc).post('/v1/tokens/resolve').send({}).expect(400);
    expect(res.body).toEqual({ error: 'token is missing' });
  });
});

describe('GET /internal/v1/users/lookup', () => {
  it('finds by id and by username; 404 otherwise', async () => {
    const u = await makeUser(svc);
    expect((await internal(svc).get(`/v1/users/lookup?ref=${u.id}`).expect(200)).body.username).toBe(u.username);
    expect((await internal(svc).get(`/v1/users/lookup?ref=${u.username.toUpperCase()}`).expect(200)).body.id).toBe(u.id);
    expect((await internal(svc).get('/v1/users/lookup?ref=nobody-here').expect(404)).body).toEqual({ message: '404 User Not Found' });
  });
});

describe('GET /internal/v1/projects/resolve', () => {
  it('resolves id and full path (case-insensitive) with the effective level', async () => {
    const owner = await makeUser(svc);
    const dev = await makeUser(svc);
    const group = await makeGroup(svc, owner);
    const sub = await makeGroup(svc, owner, { parent_id: group.id });
    const project = await makeProject(svc, owner, { namespace_id: sub.id, path: 'My-Proj' });
    await addMember(svc, 'groups', group.id, dev, 30);
    const expected = { id: project.id, path_with_namespace: `${sub.full_path}/My-Proj`, namespace_id: sub.id, group_id: sub.id, visibility: 'private' };
    const byId = await internal(svc).get(`/v1/projects/resolve?ref=${project.id}&user_id=${dev.id}`).expect(200);
    expect(byId.body).toEqual({ ...expected, access_level: 30 });
    const byPath = await internal(svc).get(`/v1/projects/resolve?ref=${encodeURIComponent(`${sub.full_path}/my-proj`.toUpperCase())}&user_id=${owner.id}`).expect(200);
    expect(byPath.body).toEqual({ ...expected, access_level: 50 });
    const anon = await internal(svc).get(`/v1/projects/resolve?ref=${project.id}&user_id=`).expect(200);
    expect(anon.body.access_level).toBe(0);
    expect((await internal(svc).get(`/v1/projects/resolve?ref=${encodeURIComponent(`${sub.full_path}/nope`)}&user_id=`).expect(404)).body).toEqual({ message: '404 Project Not Found' });
    expect((await internal(svc).get('/v1/projects/resolve?ref=999999&user_id=').expect(404)).body).toEqual({ message: '404 Project Not Found' });
  });

  it('ignores expired memberships', async () => {
    const owner = await makeUser(svc);
    const guest = await makeUser(svc);
    const project = await makeProject(svc, owner);
    await addMember(svc, 'projects', project.id, guest, 20);
    await svc.deps.db('members').where({ user_id: guest.id }).update({ expires_at: '2000-01-01' });
    const res = await internal(svc).get(`/v1/projects/resolve?ref=${project.id}&user_id=${guest.id}`).expect(200);
    expect(res.body.access_level).toBe(0);
  });
});

describe('GET /internal/v1/groups/resolve', () => {
  it('resolves id and path with the inherited level', async () => {
    const owner = await makeUser(svc);
    const reporter = await makeUser(svc);
    const group = await makeGroup(svc, owner, { visibility: 'internal' });
    const sub = await makeGroup(svc, owner, { parent_id: group.id, visibility: 'internal' });
    await addMember(svc, 'groups', group.id, reporter, 20);
    const res = await internal(svc).get(`/v1/groups/resolve?ref=${encodeURIComponent(sub.full_path.toUpperCase())}&user_id=${reporter.id}`).expect(200);
    expect(res.body).toEqual({ id: sub.id, full_path: sub.full_path, parent_id: group.id, visibility: 'internal', access_level: 20 });
    expect((await internal(svc).get(`/v1/groups/resolve?ref=${unique('none')}&user_id=`).expect(404)).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /internal/v1/projects/readable', () => {
  it('answers public to anonymous, adds internal and member projects for users, everything for admins', async () => {
    const owner = await makeUser(svc);
    const member = await makeUser(svc);
    const outsider = await makeUser(svc);
    const group = await makeGroup(svc, owner);
    const priv = await makeProject(svc, owner, { namespace_id: group.id });
    const internalP = await makeProject(svc, owner, { visibility: 'internal' });
    const pub = await makeProject(svc, owner, { visibility: 'public' });
    const direct = await makeProject(svc, owner);
    await addMember(svc, 'groups', group.id, member, 10);
    await addMember(svc, 'projects', direct.id, member, 30);
    const ids = async (q: string) => ((await internal(svc).get(`/v1/projects/readable?${q}`).expect(200)).body.ids as number[]);
    const mine = [priv.id, internalP.id, pub.id, direct.id];
    const anon = await ids('user_id=');
    expect(anon).toContain(pub.id);
    expect(anon).not.toContain(internalP.id);
    expect(anon).not.toContain(priv.id);
    const m = await ids(`user_id=${member.id}`);
    expect(mine.filter((id) => m.includes(id))).toEqual(mine);
    const o = await ids(`user_id=${outsider.id}`);
    expect(mine.filter((id) => o.includes(id))).toEqual([internalP.id, pub.id]);
    expect(await ids(`user_id=${member.id}&min_access_level=30`)).toEqual([direct.id]);
    const root = await rootActor(svc);
    const all = await ids(`user_id=${root.id}`);
    expect(mine.filter((id) => all.includes(id))).toEqual(mine);
  });
});
