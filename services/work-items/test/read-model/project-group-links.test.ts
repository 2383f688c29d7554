import { GroupLinkEvents, ProjectGroupLinkEvents, type ProjectGroupLinkEventV1 } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { GroupInfo, ProjectInfo, startWorkItems, World } from '../support/world';

/** Identity's project shares reach work-items' own access checks: `GET /issues` follows them. */
describe('project shares in the read model (identity.project_group_link.*)', () => {
  let svc: TestService;
  let world: World;
  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
  });
  afterAll(() => svc?.stop());

  const link = (project: ProjectInfo, group: GroupInfo, access: number, expiresAt: string | null = null): ProjectGroupLinkEventV1 => ({
    project_id: project.id, group_id: group.id, group_access: access, expires_at: expiresAt,
  });

  it('shows a shared project’s issues to members of the group and of its ancestors (not of its subgroups), at the lower level, until unshared or expired', async () => {
    const [owner, reader, parentDev, subDev] = [await world.user('pshare-owner'), await world.user('pshare-reader'), await world.user('pshare-parent'), await world.user('pshare-sub')];
    const home = await world.group('home');
    const guests = await world.group('guests');
    const team = await world.group('team', { parent: guests });
    const inner = await world.group('inner', { parent: team });
    const vault = await world.project('vault', { group: home });
    await world.member(home, owner, 50);
    await world.member(team, reader, 30);
    await world.member(guests, parentDev, 40);
    await world.member(inner, subDev, 50);
    const open = (await world.onProject(vault, owner).post(`/api/v4/projects/${vault.id}/issues`).send({ title: 'in the vault' }).expect(201)).body;
    const secret = (await world.onProject(vault, owner).post(`/api/v4/projects/${vault.id}/issues`).send({ title: 'secret', confidential: true }).expect(201)).body;
    const seen = async (user = reader) => {
      const res = await world.as(user).get('/api/v4/issues?scope=all').expect(200);
      return { ids: res.body.map((i: { id: number }) => i.id).sort(), total: res.headers['x-total'] };
    };
    const both = { ids: [open.id, secret.id].sort(), total: '2' };
    const none = { ids: [], total: '0' };

    expect(await seen()).toEqual(none);
    await world.publish(ProjectGroupLinkEvents.created, link(vault, team, 30));
    expect(await seen()).toEqual(both);
    expect(await seen(parentDev)).toEqual(both);
    expect(await seen(subDev)).toEqual(none);

    // Guest through the share: the confidential issue stays hidden although the member is a Developer in the group
    await world.publish(ProjectGroupLinkEvents.created, link(vault, team, 10));
    expect(await seen()).toEqual({ ids: [open.id], total: '1' });

    await world.publish(ProjectGroupLinkEvents.deleted, link(vault, team, 10));
    expect(await seen()).toEqual(none);
    expect(await seen(parentDev)).toEqual(none);

    await world.publish(ProjectGroupLinkEvents.created, link(vault, team, 30, '2020-01-01'));
    expect(await seen()).toEqual(none);
    await world.publish(ProjectGroupLinkEvents.created, link(vault, team, 30, '2999-12-31'));
    expect(await seen()).toEqual(both);

    // the project is not in the invited group's hierarchy: its group issue list leaves it out
    const groupList = await world.onGroup(team, reader).get(`/api/v4/groups/${team.id}/issues`).expect(200);
    expect([groupList.body, groupList.headers['x-total']]).toEqual([[], '0']);
    await world.publish(ProjectGroupLinkEvents.deleted, link(vault, team, 30));
  });

  it('reaches a project shared with a group that is itself shared with the user’s group, at the lowest of the three levels', async () => {
    const [owner, outsider] = [await world.user('chain-owner'), await world.user('chain-outsider')];
    const home = await world.group('chain-home');
    const middle = await world.group('chain-middle');
    const outer = await world.group('chain-outer');
    const vault = await world.project('chain-vault', { group: home });
    await world.member(home, owner, 50);
    await world.member(outer, outsider, 40);
    const open = (await world.onProject(vault, owner).post(`/api/v4/projects/${vault.id}/issues`).send({ title: 'open' }).expect(201)).body;
    await world.onProject(vault, owner).post(`/api/v4/projects/${vault.id}/issues`).send({ title: 'secret', confidential: true }).expect(201);
    const seen = async () => (await world.as(outsider).get('/api/v4/issues?scope=all').expect(200)).body.map((i: { id: number }) => i.id).sort();

    await world.publish(ProjectGroupLinkEvents.created, link(vault, middle, 30));
    expect(await seen()).toEqual([]);
    await world.publish(GroupLinkEvents.created, { shared_group_id: middle.id, shared_group_traversal_ids: middle.traversal, shared_with_group_id: outer.id, group_access: 10, expires_at: null });
    expect(await seen()).toEqual([open.id]);
    await world.publish(GroupLinkEvents.created, { shared_group_id: middle.id, shared_group_traversal_ids: middle.traversal, shared_with_group_id: outer.id, group_access: 30, expires_at: null });
    expect((await seen()).length).toBe(2);
  });
});
