import { GroupLinkEvents, type GroupLinkEventV1 } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { GroupInfo, startWorkItems, World } from '../support/world';

/** Identity's group shares reach work-items' own access checks: `GET /issues` follows them. */
describe('group shares in the read model (identity.group_link.*)', () => {
  let svc: TestService;
  let world: World;
  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
  });
  afterAll(() => svc?.stop());

  const link = (shared: GroupInfo, withGroup: GroupInfo, access: number, expiresAt: string | null = null): GroupLinkEventV1 => ({
    shared_group_id: shared.id, shared_group_traversal_ids: shared.traversal, shared_with_group_id: withGroup.id, group_access: access, expires_at: expiresAt,
  });

  it('shows a shared group’s private issues to members of the invited group (and of its parents), at the lower level, until unshared or expired', async () => {
    const [owner, reader] = [await world.user('share-owner'), await world.user('share-reader')];
    const alpha = await world.group('alpha');
    const beta = await world.group('beta');
    const betaTeam = await world.group('team', { parent: beta });
    const vault = await world.project('vault', { group: alpha });
    await world.member(alpha, owner, 50);
    await world.member(beta, reader, 30);
    const open = (await world.onProject(vault, owner).post(`/api/v4/projects/${vault.id}/issues`).send({ title: 'in the vault' }).expect(201)).body;
    const secret = (await world.onProject(vault, owner).post(`/api/v4/projects/${vault.id}/issues`).send({ title: 'secret', confidential: true }).expect(201)).body;
    const seen = async () => (await world.as(reader).get('/api/v4/issues?scope=all').expect(200)).body.map((i: { id: number }) => i.id).sort();

    expect(await seen()).toEqual([]);
    await world.publish(GroupLinkEvents.created, link(alpha, betaTeam, 30));
    expect(await seen()).toEqual([open.id, secret.id].sort());

    await world.publish(GroupLinkEvents.created, link(alpha, betaTeam, 10));
    expect(await seen()).toEqual([open.id]);

    await world.publish(GroupLinkEvents.deleted, link(alpha, betaTeam, 10));
    expect(await seen()).toEqual([]);

    await world.publish(GroupLinkEvents.created, link(alpha, betaTeam, 30, '2020-01-01'));
    expect(await seen()).toEqual([]);
  });
});
