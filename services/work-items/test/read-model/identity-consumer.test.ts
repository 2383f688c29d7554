import { IdentityEvents } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { AccessLevel, startWorkItems, World } from '../support/world';

describe('identity read models (queue work-items.identity)', () => {
  let svc: TestService;
  let world: World;
  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
  });
  afterAll(() => svc?.stop());

  const titles = async (who: Parameters<World['as']>[0]) => (await world.as(who).get('/api/v4/issues?scope=all').expect(200)).body.map((i: { title: string }) => i.title).sort();

  it('applies a redelivered event once (inbox)', async () => {
    const user = await world.user('once');
    const event = { id: '11111111-2222-4333-8444-555555555555', type: IdentityEvents.userUpdated, occurred_at: new Date(Date.now() + 1000).toISOString(), producer: 'identity', version: 1, data: { id: user.id, username: 'once-renamed', name: 'x', state: 'active', avatar_url: null, web_url: 'w', admin: false } };
    await svc.deps.bus.publish(event);
    await svc.deps.bus.publish(event);
    const until = Date.now() + 3000;
    while (Date.now() < until && !(await svc.deps.db('inbox').where({ event_id: event.id }).first())) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    expect((await svc.deps.db('inbox').where({ event_id: event.id })).length).toBe(1);
    expect((await svc.deps.db('users').where({ id: user.id }).first()).username).toBe('once-renamed');
  });

  it('follows memberships: a new member sees the private project’s issues in /issues, a removed one no longer', async () => {
    const owner = await world.user('own1');
    const reader = await world.user('reader1');
    const project = await world.project('priv1');
    await world.member(project, owner, AccessLevel.OWNER);
    await world.onProject(project, owner).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'Private one' }).expect(201);
    expect(await titles(reader)).toEqual([]);
    await world.member(project, reader, AccessLevel.GUEST);
    expect(await titles(reader)).toEqual(['Private one']);
    await world.publish(IdentityEvents.membershipDeleted, { source_type: 'Project', source_id: project.id, user_id: reader.id, access_level: AccessLevel.GUEST, expires_at: null });
    expect(await titles(reader)).toEqual([]);
  });

  it('follows project visibility and deletion', async () => {
    const owner = await world.user('own2');
    const outsider = await world.user('outsider2');
    const project = await world.project('vis', { visibility: 'private' });
    await world.member(project, owner, AccessLevel.OWNER);
    await world.onProject(project, owner).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'Will be public' }).expect(201);
    expect(await titles(outsider)).toEqual([]);
    const path = project.path_with_namespace.split('/').pop() as string;
    const base = { id: project.id, name: path, path, path_with_namespace: project.path_with_namespace, namespace_id: project.namespace_id, namespace_kind: 'user', group_id: null, group_traversal_ids: [], archived: false, creator_id: null, web_url: 'w' };
    await world.publish(IdentityEvents.projectUpdated, { ...base, visibility: 'public' });
    expect(await titles(outsider)).toEqual(['Will be public']);
    expect(await titles(null)).toEqual(['Will be public']);
    await world.publish(IdentityEvents.projectDeleted, { ...base, visibility: 'public' });
    expect(await titles(outsider)).toEqual([]);
    expect(await svc.deps.db('issues').where({ project_id: project.id }).first()).toBeUndefined();
  });

  it('shows internal projects to every logged-in user, not to anonymous callers', async () => {
    const owner = await world.user('own5');
    const someone = await world.user('someone5');
    const project = await world.project('inside', { visibility: 'internal' });
    await world.member(project, owner, AccessLevel.OWNER);
    await world.onProject(project, owner).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'Internal one' }).expect(201);
    await world.onProject(project, owner).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'Internal secret', confidential: true }).expect(201);
    expect((await titles(someone)).filter((t: string) => t.startsWith('Internal'))).toEqual(['Internal one']);
    expect((await titles(null)).filter((t: string) => t.startsWith('Internal'))).toEqual([]);
  });

  it('lets group membership reach subgroup projects (traversal ids)', async () => {
    const lead = await world.user('lead3');
    const top = await world.group('top3');
    const sub = await world.group('sub3', { parent: top });
    const project = await world.project('deep', { group: sub });
    const admin = await world.user('adm3', { admin: true });
    await world.onProject(project, admin).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'Deep issue', confidential: true }).expect(201);
    const deep = async () => (await titles(lead)).filter((t: string) => t === 'Deep issue');
    expect(await deep()).toEqual([]);
    await world.member(top, lead, AccessLevel.REPORTER);
    expect(await deep()).toEqual(['Deep issue']);
  });

  it('shows new issues in counted lists right after a write (no stale totals from the caches)', async () => {
    const owner = await world.user('own4');
    const project = await world.project('counted');
    await world.member(project, owner, AccessLevel.OWNER);
    const list = () => world.onProject(project, owner).get(`/api/v4/projects/${project.id}/issues?per_page=1`).expect(200);
    for (let n = 1; n <= 3; n++) {
      await world.onProject(project, owner).post(`/api/v4/projects/${project.id}/issues`).send({ title: `n${n}` }).expect(201);
      const res = await list();
      expect(res.headers['x-total']).toBe(String(n));
      expect(res.body[0].title).toBe(`n${n}`);
    }
  });
});
