import { addMember, events, Identity, makeGroup, makeUser, rootActor, startIdentity, unique } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

describe('POST /projects', () => {
  describe('in the caller’s namespace', () => {
    it('creates a private project, makes the owner an Owner member, and writes the events', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/projects').send({ name: 'My Project', description: 'd' }).expect(201);
      expect(res.body).toMatchObject({
        name: 'My Project',
        path: 'my-project',
        path_with_namespace: `${me.username}/my-project`,
        name_with_namespace: `${me.name} / My Project`,
        description: 'd',
        visibility: 'private',
        default_branch: 'main',
        web_url: `http://127.0.0.1:8080/${me.username}/my-project`,
        http_url_to_repo: `http://127.0.0.1:8080/${me.username}/my-project.git`,
        ssh_url_to_repo: `git@127.0.0.1:${me.username}/my-project.git`,
        namespace: { name: me.name, path: me.username, kind: 'user', full_path: me.username, parent_id: null, avatar_url: null, web_url: `http://127.0.0.1:8080/${me.username}` },
        owner: { id: me.id, username: me.username },
        creator_id: me.id,
        archived: false,
        issues_enabled: true,
        tag_list: [],
        topics: [],
        _links: { self: `http://127.0.0.1:8080/api/v4/projects/${res.body.id}` },
      });
      const member = await svc.deps.db('members').where({ source_type: 'Project', source_id: res.body.id }).first();
      expect(member).toMatchObject({ user_id: me.id, access_level: 50, created_by_id: me.id });
      const [created] = await events(svc, 'identity.project.created', { id: res.body.id });
      expect(created.data).toEqual({
        id: res.body.id, name: 'My Project', path: 'my-project', path_with_namespace: `${me.username}/my-project`, namespace_id: res.body.namespace.id, namespace_kind: 'user',
        group_id: null, group_traversal_ids: [], visibility: 'private', archived: false, creator_id: me.id, web_url: `http://127.0.0.1:8080/${me.username}/my-project`,
      });
      expect(await events(svc, 'identity.membership.created', { source_type: 'Project', source_id: res.body.id, user_id: me.id })).toHaveLength(1);
    });

    it('takes the name from the path, topics and legacy feature flags', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/projects').send({ path: 'only-path', topics: ['a', 'b'], issues_enabled: false, visibility: 'public' }).expect(201);
      expect(res.body).toMatchObject({ name: 'only-path', path: 'only-path', topics: ['a', 'b'], issues_enabled: false, issues_access_level: 'disabled', visibility: 'public' });
    });

    it('returns 400 when neither name nor path is given', async () => {
      const me = await makeUser(svc);
      const res = await svc.as({ user: me }).post('/api/v4/projects').send({ description: 'x' }).expect(400);
      expect(res.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
    });

    it('returns 400 with field errors for a taken name and path (case-insensitive path)', async () => {
      const me = await makeUser(svc);
      await svc.as({ user: me }).post('/api/v4/projects').send({ name: 'Dup', path: 'dup' }).expect(201);
      const res = await svc.as({ user: me }).post('/api/v4/projects').send({ name: 'Dup', path: 'DUP' }).expect(400);
      expect(res.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
    });

    it('returns 400 for an invalid visibility and an invalid path', async () => {
      const me = await makeUser(svc);
      expect((await svc.as({ user: me }).post('/api/v4/projects').send({ path: 'x', visibility: 'secret' }).expect(400)).body).toEqual({ error: 'visibility does not have a valid value' });
      const bad = await svc.as({ user: me }).post('/api/v4/projects').send({ path: '-bad.git' }).expect(400);
      expect(bad.body.message.path[0]).toMatch(/^can contain only letters/);
    });
  });

  describe('in a group', () => {
    it('lets a Maintainer create it, adds no member, and reports the group ancestry', async () => {
      const owner = await makeUser(svc);
      const maintainer = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      const sub = await makeGroup(svc, owner, { parent_id: group.id });
      await addMember(svc, 'groups', group.id, maintainer, 40);
      const res = await svc.as({ user: maintainer }).post('/api/v4/projects').send({ path: 'gp', namespace_id: sub.id }).expect(201);
      expect(res.body.path_with_namespace).toBe(`${sub.full_path}/gp`);
      expect(res.body.name_with_namespace).toBe(`${group.path} / ${sub.path} / gp`);
      expect(res.body.owner).toBeUndefined();
      expect(res.body.namespace).toMatchObject({ kind: 'group', parent_id: group.id, web_url: `http://127.0.0.1:8080/groups/${sub.full_path}` });
      expect(await svc.deps.db('members').where({ source_type: 'Project', source_id: res.body.id })).toEqual([]);
      const [ev] = await events(svc, 'identity.project.created', { id: res.body.id });
      expect(ev.data).toMatchObject({ namespace_kind: 'group', group_id: sub.id, group_traversal_ids: [group.id, sub.id] });
    });

    it('refuses a Developer (project creation needs Maintainer)', async () => {
      const owner = await makeUser(svc);
      const dev = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      await addMember(svc, 'groups', group.id, dev, 30);
      const res = await svc.as({ user: dev }).post('/api/v4/projects').send({ path: 'x', namespace_id: group.id }).expect(400);
      expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
    });

    it("refuses another user's namespace and an unknown one", async () => {
      const me = await makeUser(svc);
      const other = await makeUser(svc);
      const theirs = await svc.deps.db('namespaces').where({ owner_id: other.id }).first();
      const path = unique('x');
      const inTheirs = await svc.as({ user: me }).post('/api/v4/projects').send({ path, namespace_id: theirs.id }).expect(400);
      expect(inTheirs.body).toEqual({ message: { namespace: ['is not valid'] } });
      const inUnknown = await svc.as({ user: me }).post('/api/v4/projects').send({ path, namespace_id: 999999 }).expect(400);
      expect(inUnknown.body).toEqual({ message: { namespace: ['is not valid'] } });
      expect(await svc.deps.db('projects').where({ path })).toEqual([]);
    });

    it('refuses a visibility above the group’s', async () => {
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      const res = await svc.as({ user: owner }).post('/api/v4/projects').send({ path: 'x', namespace_id: group.id, visibility: 'public' }).expect(400);
      expect(res.body).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } });
    });

    it('lets an administrator create in any namespace', async () => {
      const root = await rootActor(svc);
      const owner = await makeUser(svc);
      const group = await makeGroup(svc, owner);
      const path = unique('adm');
      const res = await svc.as({ user: root }).post('/api/v4/projects').send({ path, namespace_id: group.id }).expect(201);
      expect(res.body).toMatchObject({ path, path_with_namespace: `${group.full_path}/${path}`, namespace: { id: group.id, kind: 'group', full_path: group.full_path }, creator_id: root.id });
      expect(await events(svc, 'identity.project.created', { id: res.body.id })).toHaveLength(1);
    });
  });

  describe('anonymous', () => {
    it('returns 401', async () => {
      const path = unique('anon');
      const res = await svc.as({ user: null }).post('/api/v4/projects').send({ path }).expect(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
      expect(await svc.deps.db('projects').where({ path })).toEqual([]);
    });
  });
});
