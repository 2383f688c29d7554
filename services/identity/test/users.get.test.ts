import { addMember, Identity, makeGroup, makeProject, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const BASIC = ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url'];

describe('GET /users', () => {
  describe('as a regular user', () => {
    it('finds by username case-insensitively and returns UserBasic', async () => {
      const me = await makeUser(svc);
      const other = await makeUser(svc);
      const res = await svc.as({ user: me }).get(`/api/v4/users?username=${other.username.toUpperCase()}`).expect(200);
      expect(res.body).toEqual([{ id: other.id, username: other.username, name: other.name, state: 'active', locked: false, avatar_url: null, web_url: `http://127.0.0.1:8080/${other.username}` }]);
    });

    it('searches name and username and paginates with GitLab headers', async () => {
      const me = await makeUser(svc);
      const tag = unique('srch');
      for (let i = 0; i < 3; i++) await makeUser(svc, { username: `${tag}u${i}` });
      const res = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&per_page=2`).expect(200);
      expect(res.body).toHaveLength(2);
      expect(Object.keys(res.body[0])).toEqual(BASIC);
      expect(res.headers['x-total']).toBe('3');
      expect(res.headers['x-next-page']).toBe('2');
      expect(res.headers.link).toContain('rel="next"');
      // GitLab's relevance order: exact matches first, then by name
      expect(res.body.map((u: { username: string }) => u.username)).toEqual([`${tag}u0`, `${tag}u1`]);
      const second = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&per_page=2&page=2`).expect(200);
      expect(second.body.map((u: { username: string }) => u.username)).toEqual([`${tag}u2`]);
      expect(second.body[0]).toEqual({ id: expect.any(Number), username: `${tag}u2`, name: expect.any(String), state: 'active', locked: false, avatar_url: null, web_url: `http://127.0.0.1:8080/${tag}u2` });
      expect([second.headers['x-total'], second.headers['x-total-pages'], second.headers['x-next-page']]).toEqual(['3', '2', '']);
      // past the last page: no row carries the total, which is still counted
      const beyond = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&per_page=2&page=5`).expect(200);
      expect(beyond.body).toEqual([]);
      expect([beyond.headers['x-total'], beyond.headers['x-total-pages']]).toEqual(['3', '2']);
    });

    it('searches as GitLab: every word of 3+ characters in the name or in the username, a shorter query whole', async () => {
      const me = await makeUser(svc);
      const tag = unique('gw');
      const u = await makeUser(svc, { username: `${tag}_zed`, name: `Ärger ${tag} Mixed` });
      const found = async (term: string) => (await svc.as({ user: me }).get(`/api/v4/users?search=${encodeURIComponent(term)}`).expect(200)).body.map((x: { id: number }) => x.id);
      expect(await found(`mixed ÄRGER ${tag.toUpperCase()}`)).toEqual([u.id]);
      // words shorter than 3 characters are dropped when longer ones remain; a leading @ is ignored
      expect(await found(`@${tag} x`)).toEqual([u.id]);
      expect(await found(`${tag}_ZED`)).toEqual([u.id]);
      // all words must be in the name, or all in the username
      expect(await found(`mixed zed`)).toEqual([]);
      expect(await found(`"ärger ${tag}"`)).toEqual([u.id]);
      expect(await found(`"${tag} ärger"`)).toEqual([]);
      // LIKE's wildcards in a term are literal characters
      expect(await found(`${tag}%zed`)).toEqual([]);
      // a query without a 3-character word matches a whole name or username only
      const short = await makeUser(svc, { username: 'zq', name: 'Zq' });
      await makeUser(svc, { username: `${tag}zq`, name: 'Zq and more' });
      expect(await found(' ZQ ')).toEqual([short.id]);
      expect(await found('@')).toEqual([]);
      await svc.as({ user: await rootActor(svc) }).put(`/api/v4/users/${u.id}`).send({ name: 'Renamed Qwertyuiop' }).expect(200);
      expect(await found('qwertyUIOP')).toEqual([u.id]);
      expect(await found(`ärger ${tag}`)).toEqual([]);
    });

    it('ranks an exact username, then an exact name, before the other matches by name (keyset pages stay by id)', async () => {
      const me = await makeUser(svc);
      const tag = unique('rk');
      const zzz = await makeUser(svc, { username: `${tag}`, name: 'Zzz last by name' });
      const named = await makeUser(svc, { username: `${tag}named`, name: tag });
      const a = await makeUser(svc, { username: `${tag}a`, name: `Aaa ${tag}` });
      const b = await makeUser(svc, { username: `${tag}b`, name: `Bbb ${tag}` });
      const ids = async (q: string) => (await svc.as({ user: me }).get(`/api/v4/users?search=${tag}${q}`).expect(200)).body.map((x: { id: number }) => x.id);
      expect(await ids('')).toEqual([zzz.id, named.id, a.id, b.id]);
      expect(await ids('&per_page=2&page=2')).toEqual([a.id, b.id]);
      expect(await ids('&per_page=3&page=2')).toEqual([b.id]);
      // an administrator's order_by or sort replaces the relevance order
      const root = await rootActor(svc);
      const byId = (await svc.as({ user: root }).get(`/api/v4/users?search=${tag}&sort=asc`).expect(200)).body.map((x: { id: number }) => x.id);
      expect(byId).toEqual([zzz.id, named.id, a.id, b.id].sort((x, y) => x - y));
      const keyset = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&pagination=keyset&order_by=id&per_page=10`).expect(200);
      expect(keyset.body.map((x: { id: number }) => x.id)).toEqual([b.id, a.id, named.id, zzz.id]);
    });

    it('orders a search with thousands of matches by name too, exact matches first, and counts it', async () => {
      const me = await makeUser(svc);
      const tag = unique('many');
      // more matches than are sorted in one statement (3,000): the rest is read in (name, id) order
      await svc.deps.db.raw(`INSERT INTO users (username, email, name, confirmed_at) SELECT ? || i, ? || i || '@example.com', 'Many ' || ? || ' ' || lpad(i::text, 4, '0'), now() FROM generate_series(1, 3050) i`, [tag, tag, tag]);
      const exact = await makeUser(svc, { username: `${tag}x`, name: `${tag}` });
      const first = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&per_page=3`).expect(200);
      expect(first.body.map((u: { name: string }) => u.name)).toEqual([tag, `Many ${tag} 0001`, `Many ${tag} 0002`]);
      expect(first.body[0].id).toBe(exact.id);
      expect([first.headers['x-total'], first.headers['x-total-pages']]).toEqual(['3051', '1017']);
      const last = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&per_page=3&page=1017`).expect(200);
      expect(last.body.map((u: { name: string }) => u.name)).toEqual([`Many ${tag} 3048`, `Many ${tag} 3049`, `Many ${tag} 3050`]);
    });

    it('filters blocked users with blocked=True (python-gitlab booleans)', async () => {
      const me = await makeUser(svc);
      const blocked = await makeUser(svc);
      await svc.deps.db('users').where({ id: blocked.id }).update({ state: 'blocked' });
      const res = await svc.as({ user: me }).get(`/api/v4/users?blocked=True&username=${blocked.username}`).expect(200);
      expect(res.body.map((u: { id: number }) => u.id)).toEqual([blocked.id]);
      const active = await svc.as({ user: me }).get(`/api/v4/users?active=True&username=${blocked.username}`).expect(200);
      expect(active.body).toEqual([]);
    });

    it('walks keyset pages through the Link header (sort is administrator-only, so newest first)', async () => {
      const me = await makeUser(svc);
      const tag = unique('ks');
      for (let i = 0; i < 3; i++) await makeUser(svc, { username: `${tag}k${i}` });
      const first = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&pagination=keyset&order_by=id&sort=asc&per_page=2`).expect(200);
      expect(first.body.map((u: { username: string }) => u.username)).toEqual([`${tag}k2`, `${tag}k1`]);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1].replace('http://127.0.0.1:8080', '');
      const second = await svc.as({ user: me }).get(next).expect(200);
      expect(second.body.map((u: { username: string }) => u.username)).toEqual([`${tag}k0`]);
      expect(second.headers.link).toBeUndefined();
    });
  });

  describe('as an administrator', () => {
    it('walks keyset pages in the requested order', async () => {
      const root = await rootActor(svc);
      const tag = unique('ka');
      for (let i = 0; i < 3; i++) await makeUser(svc, { username: `${tag}k${i}` });
      const first = await svc.as({ user: root }).get(`/api/v4/users?search=${tag}&pagination=keyset&order_by=id&sort=asc&per_page=2`).expect(200);
      expect(first.body.map((u: { username: string }) => u.username)).toEqual([`${tag}k0`, `${tag}k1`]);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1].replace('http://127.0.0.1:8080', '');
      const second = await svc.as({ user: root }).get(next).expect(200);
      expect(second.body.map((u: { username: string }) => u.username)).toEqual([`${tag}k2`]);
    });

    it('returns UserWithAdmin entries and honours order_by', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const res = await svc.as({ user: root }).get(`/api/v4/users?username=${u.username}&order_by=username&sort=asc`).expect(200);
      expect(res.body[0]).toMatchObject({ id: u.id, is_admin: false, email: `${u.username}@example.com` });
    });
  });

  describe('filters for everyone', () => {
    it('exclude_internal drops internal bots but keeps project bots; without_project_bots drops those', async () => {
      const me = await makeUser(svc);
      const tag = unique('bt');
      const alert = await makeUser(svc, { username: `${tag}alert` });
      const projectBot = await makeUser(svc, { username: `${tag}pbot` });
      const human = await makeUser(svc, { username: `${tag}human` });
      await svc.deps.db('users').where({ id: alert.id }).update({ user_type: 'alert_bot', bot: true });
      await svc.deps.db('users').where({ id: projectBot.id }).update({ user_type: 'project_bot', bot: true });
      const ids = async (q: string) => (await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&${q}`).expect(200)).body.map((u: { id: number }) => u.id);
      // a search lists by name: Name <tag>alert, Name <tag>human, Name <tag>pbot
      expect(await ids('exclude_internal=true')).toEqual([human.id, projectBot.id]);
      expect(await ids('without_project_bots=true')).toEqual([alert.id, human.id]);
      expect(await ids('exclude_internal=false')).toEqual([alert.id, human.id, projectBot.id]);
    });

    it('ignores administrator-only filters for regular users', async () => {
      const me = await makeUser(svc);
      const tag = unique('ig');
      const u = await makeUser(svc, { username: `${tag}u` });
      const res = await svc.as({ user: me }).get(`/api/v4/users?search=${tag}&two_factor=enabled&without_projects=true&custom_attributes[a]=b&with_custom_attributes=true`).expect(200);
      expect(res.body).toEqual([{ id: u.id, username: u.username, name: u.name, state: 'active', locked: false, avatar_url: null, web_url: `http://127.0.0.1:8080/${u.username}` }]);
    });

    it('returns 403 for extern_uid with provider and 400 for only one of them', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).get('/api/v4/users?extern_uid=1&provider=github').expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      const one = await svc.as({ user: me }).get('/api/v4/users?extern_uid=1').expect(400);
      expect(one.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
      await svc.as({ user: null }).get('/api/v4/users?extern_uid=1&provider=github&username=x').expect(401);
    });

    it('rejects an unknown two_factor value', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).get('/api/v4/users?two_factor=maybe').expect(400);
      expect(res.body).toEqual({ error: 'two_factor does not have a valid value' });
    });
  });

  describe('administrator filters', () => {
    it('finds a user by extern_uid and provider, with identities in the entity', async () => {
      const root = await rootActor(svc);
      const uid = unique('uid');
      const u = await makeUser(svc, { provider: 'ldapmain', extern_uid: uid });
      await makeUser(svc, { provider: 'github', extern_uid: uid });
      const res = await svc.as({ user: root }).get(`/api/v4/users?extern_uid=${uid.toUpperCase()}&provider=ldapmain`).expect(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual([u.id]);
      expect(res.body[0].identities).toEqual([{ provider: 'ldapmain', extern_uid: uid, saml_provider_id: null }]);
    });

    it('two_factor=enabled finds nobody; disabled finds everyone', async () => {
      const root = await rootActor(svc);
      const tag = unique('tf');
      const u = await makeUser(svc, { username: `${tag}u` });
      expect((await svc.as({ user: root }).get(`/api/v4/users?search=${tag}&two_factor=enabled`).expect(200)).body).toEqual([]);
      expect((await svc.as({ user: root }).get(`/api/v4/users?search=${tag}&two_factor=disabled`).expect(200)).body.map((x: { id: number }) => x.id)).toEqual([u.id]);
    });

    it('without_projects keeps users with no project of their own, no project membership and no group holding one', async () => {
      const root = await rootActor(svc);
      const tag = unique('wp');
      const owner = await makeUser(svc, { username: `${tag}own` });
      const member = await makeUser(svc, { username: `${tag}mem` });
      const grouped = await makeUser(svc, { username: `${tag}grp` });
      const emptyGroup = await makeUser(svc, { username: `${tag}emp` });
      const none = await makeUser(svc, { username: `${tag}none` });
      const project = await makeProject(svc, owner);
      await addMember(svc, 'projects', project.id, member, 30);
      const g = await makeGroup(svc, root);
      await makeProject(svc, root, { namespace_id: g.id });
      await addMember(svc, 'groups', g.id, grouped, 30);
      const empty = await makeGroup(svc, root);
      await addMember(svc, 'groups', empty.id, emptyGroup, 30);
      const res = await svc.as({ user: root }).get(`/api/v4/users?search=${tag}&without_projects=true`).expect(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual([emptyGroup.id, none.id]);
    });

    it('filters by custom_attributes and shows them with with_custom_attributes', async () => {
      const root = await rootActor(svc);
      const tag = unique('ca');
      const blue = await makeUser(svc, { username: `${tag}b` });
      const red = await makeUser(svc, { username: `${tag}r` });
      await svc.as({ user: root }).put(`/api/v4/users/${blue.id}/custom_attributes/team`).send({ value: 'blue' }).expect(200);
      await svc.as({ user: root }).put(`/api/v4/users/${red.id}/custom_attributes/team`).send({ value: 'red' }).expect(200);
      const res = await svc.as({ user: root }).get(`/api/v4/users?search=${tag}&custom_attributes[team]=blue&with_custom_attributes=true`).expect(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual([blue.id]);
      expect(res.body[0].custom_attributes).toEqual([{ key: 'team', value: 'blue' }]);
      const plain = await svc.as({ user: root }).get(`/api/v4/users?search=${tag}`).expect(200);
      expect(plain.body[0].custom_attributes).toBeUndefined();
    });
  });

  describe('anonymous', () => {
    it('returns 403 without username', async () => {
      const res = await svc.as({ user: null }).get('/api/v4/users').expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
    });

    it('finds one user by username', async () => {
      const u = await makeUser(svc);
      const res = await svc.as({ user: null }).get(`/api/v4/users?username=${u.username}`).expect(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual([u.id]);
    });
  });
});

describe('GET /users/:id', () => {
  it('returns the User entity to a signed-in user', async () => {
    const me = await makeUser(svc);
    const other = await makeUser(svc, { bio: 'about' });
    const res = await svc.as({ user: me }).get(`/api/v4/users/${other.id}`).expect(200);
    expect(res.body).toMatchObject({ id: other.id, username: other.username, bio: 'about', bot: false, followers: 0 });
    expect(res.body.email).toBeUndefined();
  });

  it('returns UserDetailsWithAdmin with highest_role to an administrator', async () => {
    const root = await rootActor(svc);
    const other = await makeUser(svc);
    await svc.as({ user: other }).post('/api/v4/groups').send({ name: unique('g'), path: unique('g') }).expect(201);
    const res = await svc.as({ user: root }).get(`/api/v4/users/${other.id}`).expect(200);
    expect(res.body).toMatchObject({ id: other.id, is_admin: false, highest_role: 50, sign_in_count: 0, current_sign_in_ip: null });
  });

  it('returns 404 User Not Found for an unknown id', async () => {
    const me = await makeUser(svc);
    const res = await svc.as({ user: me }).get('/api/v4/users/999999').expect(404);
    expect(res.body).toEqual({ message: '404 User Not Found' });
  });

  it('returns 403 to anonymous callers', async () => {
    const u = await makeUser(svc);
    const res = await svc.as({ user: null }).get(`/api/v4/users/${u.id}`).expect(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Not authorized!' });
  });

  it('returns 404 for a non-numeric id', async () => {
    const me = await makeUser(svc);
    const res = await svc.as({ user: me }).get(`/api/v4/users/${me.username}`).expect(404);
    expect(res.body).toEqual({ error: '404 Not Found' });
  });
});
