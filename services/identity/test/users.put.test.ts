import { verifyPassword } from '../src/users/passwords';
import { events, Identity, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

const put = async (id: number | string, body: Record<string, unknown>, status: number) =>
  svc.as({ user: await rootActor(svc) }).put(`/api/v4/users/${id}`).send(body).expect(status);

describe('PUT /users/:id', () => {
  describe('as an administrator', () => {
    it('updates profile and account attributes, answers UserWithAdmin and writes identity.user.updated', async () => {
      const u = await makeUser(svc);
      const changes = {
        name: 'New Name', bio: 'new bio', location: 'Here', website_url: 'https://example.com', organization: 'Org', job_title: 'Dev',
        pronouns: 'they/them', linkedin: 'li', twitter: 'tw', discord: '123', github: 'gh', note: 'admin note',
        admin: true, can_create_group: false, external: true, projects_limit: 7, private_profile: true, theme_id: 2, color_scheme_id: 4,
      };
      const res = await put(u.id, changes, 200);
      expect(res.body).toMatchObject({
        id: u.id, name: 'New Name', bio: 'new bio', location: 'Here', website_url: 'https://example.com', organization: 'Org', job_title: 'Dev',
        pronouns: 'they/them', linkedin: 'li', twitter: 'tw', discord: '123', github: 'gh', note: 'admin note', is_admin: true,
        can_create_group: false, external: true, projects_limit: 7, private_profile: true, theme_id: 2, color_scheme_id: 4,
        work_information: 'Dev at Org', identities: [], email: `${u.username}@example.com`,
      });
      expect(res.body.created_by).toMatchObject({ username: 'root' });
      const row = await svc.deps.db('users').where({ id: u.id }).first();
      expect(row).toMatchObject({ name: 'New Name', admin: true, external: true, projects_limit: 7 });
      expect((await svc.deps.db('namespaces').where({ owner_id: u.id }).first()).name).toBe('New Name');
      const [ev] = await events(svc, 'identity.user.updated', { id: u.id });
      expect(ev.data).toEqual({ id: u.id, username: u.username, name: 'New Name', state: 'active', avatar_url: null, web_url: `http://127.0.0.1:8080/${u.username}`, admin: true });
    });

    it('renames the user and their personal namespace', async () => {
      const u = await makeUser(svc);
      const username = unique('renamed');
      const res = await put(u.id, { username }, 200);
      expect(res.body.username).toBe(username);
      expect(res.body.web_url).toBe(`http://127.0.0.1:8080/${username}`);
      expect(await svc.deps.db('namespaces').where({ owner_id: u.id }).first()).toMatchObject({ path: username, full_path: username });
    });

    it('accepts the user\'s own e-mail and username unchanged', async () => {
      const u = await makeUser(svc);
      const res = await put(u.id, { email: `${u.username}@example.com`, username: u.username }, 200);
      expect(res.body).toMatchObject({ email: `${u.username}@example.com`, username: u.username });
    });

    it('sets a new password', async () => {
      const u = await makeUser(svc);
      await put(u.id, { password: 'another-long-pw' }, 200);
      const row = await svc.deps.db('users').where({ id: u.id }).first();
      expect(await verifyPassword('another-long-pw', row.password_digest)).toBe(true);
    });

    it('adds an identity, then changes its extern_uid', async () => {
      const u = await makeUser(svc);
      const first = await put(u.id, { provider: 'github', extern_uid: 'john' }, 200);
      expect(first.body.identities).toEqual([{ provider: 'github', extern_uid: 'john', saml_provider_id: null }]);
      const second = await put(u.id, { provider: 'github', extern_uid: 'john2' }, 200);
      expect(second.body.identities).toEqual([{ provider: 'github', extern_uid: 'john2', saml_provider_id: null }]);
      expect(await svc.deps.db('identities').where({ user_id: u.id })).toHaveLength(1);
    });

    it('stores an LDAP identity as a normalised DN (lower case, no spaces around separators)', async () => {
      const u = await makeUser(svc);
      const res = await put(u.id, { provider: 'ldapmain', extern_uid: `UID=${u.username}, OU=People ,DC=Example` }, 200);
      expect(res.body.identities).toEqual([{ provider: 'ldapmain', extern_uid: `uid=${u.username},ou=people,dc=example`, saml_provider_id: null }]);
    });

    it('returns 400 when another user holds the identity', async () => {
      const u = await makeUser(svc);
      const v = await makeUser(svc);
      const uid = unique('uid');
      await put(u.id, { provider: 'ldapmain', extern_uid: uid }, 200);
      const res = await put(v.id, { provider: 'ldapmain', extern_uid: uid.toUpperCase() }, 400);
      expect(res.body).toEqual({ message: { identities: ['is invalid'] } });
    });

    it('returns 400 when only one of extern_uid and provider is given', async () => {
      const u = await makeUser(svc);
      const res = await put(u.id, { extern_uid: '654321' }, 400);
      expect(res.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
    });

    it('makes a confirmed secondary address primary; the old primary becomes a confirmed secondary one', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc, { skip_confirmation: true });
      const email = `${unique('second')}@example.com`;
      await svc.as({ user: root }).post(`/api/v4/users/${u.id}/emails`).send({ email, skip_confirmation: true }).expect(201);
      const res = await put(u.id, { email }, 200);
      expect(res.body.email).toBe(email);
      const list = await svc.as({ user: root }).get(`/api/v4/users/${u.id}/emails`).expect(200);
      expect(list.body).toEqual([{ id: expect.any(Number), email: `${u.username}@example.com`, confirmed_at: expect.any(String) }]);
    });

    it('makes an unconfirmed secondary address primary only with skip_reconfirmation', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const email = `${unique('second')}@example.com`;
      await svc.as({ user: root }).post(`/api/v4/users/${u.id}/emails`).send({ email }).expect(201);
      const refused = await put(u.id, { email }, 400);
      expect(refused.body).toEqual({ message: { email: ['is not an email you own'] } });
      const res = await put(u.id, { email, skip_reconfirmation: true }, 200);
      expect(res.body.email).toBe(email);
      expect(res.body.confirmed_at).not.toBeNull();
    });

    it('returns 400 for an address that is none of the user\'s', async () => {
      const u = await makeUser(svc);
      const res = await put(u.id, { email: `${unique('free')}@example.com` }, 400);
      expect(res.body).toEqual({ message: { email: ['is not an email you own'] } });
    });

    it('returns 409 "Email has already been taken" for another user\'s primary or secondary address', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const v = await makeUser(svc);
      const primary = await put(u.id, { email: `${v.username.toUpperCase()}@example.com` }, 409);
      expect(primary.body).toEqual({ message: 'Email has already been taken' });
      const email = `${unique('sec')}@example.com`;
      await svc.as({ user: root }).post(`/api/v4/users/${v.id}/emails`).send({ email }).expect(201);
      const secondary = await put(u.id, { email }, 409);
      expect(secondary.body).toEqual({ message: 'Email has already been taken' });
    });

    it('returns 409 "Username has already been taken" case-insensitively', async () => {
      const u = await makeUser(svc);
      const v = await makeUser(svc);
      const res = await put(u.id, { username: v.username.toUpperCase() }, 409);
      expect(res.body).toEqual({ message: 'Username has already been taken' });
    });

    it('returns 400 with field errors for invalid values', async () => {
      const u = await makeUser(svc);
      const res = await put(u.id, { password: 'pass', email: 'invalid email', username: 'test!', bio: 'g'.repeat(256), projects_limit: -1 }, 400);
      expect(res.body).toEqual({
        message: {
          email: ['is invalid'],
          username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."],
          password: ['is too short (minimum is 8 characters)'],
          bio: ['is too long (maximum is 255 characters)'],
          projects_limit: ['must be greater than or equal to 0'],
        },
      });
      expect((await svc.deps.db('users').where({ id: u.id }).first()).email).toBe(`${u.username}@example.com`);
    });

    it('returns 400 when the username is a group path', async () => {
      const root = await rootActor(svc);
      const u = await makeUser(svc);
      const path = unique('grp');
      await svc.as({ user: root }).post('/api/v4/groups').send({ name: path, path }).expect(201);
      const res = await put(u.id, { username: path }, 400);
      expect(res.body).toEqual({ message: { username: ['has already been taken'] } });
    });

    it('returns 400 when public_email is not a verified address of the user', async () => {
      const u = await makeUser(svc);
      const res = await put(u.id, { public_email: 'someone@else.com' }, 400);
      expect(res.body).toEqual({ message: { public_email: ['is not an email you own'] } });
      const ok = await put(u.id, { public_email: `${u.username}@example.com`, commit_email: '_private' }, 200);
      expect(ok.body).toMatchObject({ public_email: `${u.username}@example.com`, commit_email: `${u.username}@example.com` });
    });

    it('accepts the attributes as a multipart form (as gitbeaker sends them)', async () => {
      const u = await makeUser(svc);
      const res = await svc.as({ user: await rootActor(svc) }).put(`/api/v4/users/${u.id}`).field('bio', 'from a form, ünïcode').field('projects_limit', '3').expect(200);
      expect(res.body).toMatchObject({ bio: 'from a form, ünïcode', projects_limit: 3 });
    });

    it('returns 404 User Not Found for an unknown user and 404 for a non-numeric id', async () => {
      const res = await put(999999, { bio: 'x' }, 404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
      await put('ASDF', { bio: 'x' }, 404);
    });
  });

  describe('as a regular user', () => {
    it('returns 403, even for themselves', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).put(`/api/v4/users/${me.id}`).send({ bio: 'mine' }).expect(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      expect((await svc.deps.db('users').where({ id: me.id }).first()).bio).toBe('');
    });
  });

  describe('anonymous', () => {
    it('returns 401', async () => {
      const u = await makeUser(svc);
      await svc.as({ user: null }).put(`/api/v4/users/${u.id}`).send({ bio: 'x' }).expect(401);
    });
  });
});

describe('POST /users with extern_uid and provider', () => {
  it('creates the identity shown in the answer', async () => {
    const root = await rootActor(svc);
    const username = unique('ext');
    const res = await svc.as({ user: root }).post('/api/v4/users').send({ username, name: username, email: `${username}@example.com`, password: 'long-enough-pw', provider: 'github', extern_uid: '67890' }).expect(201);
    expect(res.body.identities).toEqual([{ provider: 'github', extern_uid: '67890', saml_provider_id: null }]);
  });
});

describe('DELETE /users/:id/identities/:provider', () => {
  it('deletes the identity as an administrator, then answers 404 Identity Not Found', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc, { provider: 'github', extern_uid: unique('gh') });
    await svc.as({ user: root }).delete(`/api/v4/users/${u.id}/identities/github`).expect(204);
    expect(await svc.deps.db('identities').where({ user_id: u.id })).toEqual([]);
    const res = await svc.as({ user: root }).delete(`/api/v4/users/${u.id}/identities/github`).expect(404);
    expect(res.body).toEqual({ message: '404 Identity Not Found' });
  });

  it('returns 403 to a regular user', async () => {
    const u = await makeUser(svc, { provider: 'github', extern_uid: unique('gh') });
    await svc.as({ user: u }).delete(`/api/v4/users/${u.id}/identities/github`).expect(403);
  });
});

describe('user custom attributes', () => {
  it('sets, reads, lists and deletes them as an administrator', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    const as = svc.as({ user: root });
    expect((await as.put(`/api/v4/users/${u.id}/custom_attributes/team`).send({ value: 'blue' }).expect(200)).body).toEqual({ key: 'team', value: 'blue' });
    expect((await as.put(`/api/v4/users/${u.id}/custom_attributes/team`).send({ value: 'red' }).expect(200)).body).toEqual({ key: 'team', value: 'red' });
    expect((await as.get(`/api/v4/users/${u.id}/custom_attributes`).expect(200)).body).toEqual([{ key: 'team', value: 'red' }]);
    expect((await as.get(`/api/v4/users/${u.id}/custom_attributes/team`).expect(200)).body).toEqual({ key: 'team', value: 'red' });
    const one = await as.get(`/api/v4/users/${u.id}?with_custom_attributes=true`).expect(200);
    expect(one.body.custom_attributes).toEqual([{ key: 'team', value: 'red' }]);
    await as.delete(`/api/v4/users/${u.id}/custom_attributes/team`).expect(204);
    expect((await as.get(`/api/v4/users/${u.id}/custom_attributes/team`).expect(404)).body).toEqual({ message: '404 Not found' });
  });

  it('returns 400 without a value and 403 to a regular user', async () => {
    const root = await rootActor(svc);
    const u = await makeUser(svc);
    expect((await svc.as({ user: root }).put(`/api/v4/users/${u.id}/custom_attributes/k`).send({}).expect(400)).body).toEqual({ error: 'value is missing' });
    await svc.as({ user: u }).get(`/api/v4/users/${u.id}/custom_attributes`).expect(403);
  });
});
