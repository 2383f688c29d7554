import type { Knex } from 'knex';
import type { TestService } from '@anvil/testing';
import { viewerOf } from '../../src/access/viewer';
import { IssueFinder } from '../../src/issues/finder/issue-finder';
import { AccessLevel, startWorkItems, World } from '../support/world';

/**
 * `labels=X&not[labels]=Y` over more than 10,000 issues: when the counters show that X's issues
 * less every issue carrying Y still exceed 10,000, `X-Total` is omitted without walking the list;
 * when they do not, the list is counted, exactly.
 */
describe('GET issue lists: labels with not[labels] past 10,000 issues', () => {
  let svc: TestService;
  let world: World;
  beforeAll(async () => {
    svc = await startWorkItems();
    world = new World(svc);
  });
  afterAll(() => svc?.stop());

  async function seed(tag: string, issues: number, negated: number) {
    const group = await world.group(`${tag}-g`);
    const project = await world.project(`${tag}-p`, { group });
    const reader = await world.user(`${tag}-reader`);
    const guest = await world.user(`${tag}-guest`);
    await world.member(group, reader, AccessLevel.REPORTER);
    await world.member(group, guest, AccessLevel.GUEST);
    const db = svc.deps.db;
    const [huge, minus] = (await db.raw(`INSERT INTO labels (title, color, project_id) VALUES ('huge', '#000000', ?), ('minus', '#ffffff', ?) RETURNING id`, [project.id, project.id])).rows.map((r: { id: number }) => r.id);
    // every 50th issue confidential, so a Guest reads fewer than the counters hold
    await db.raw(`INSERT INTO issues (project_id, iid, title, author_id, confidential) SELECT ?, g, 'Issue ' || g, ?, g % 50 = 0 FROM generate_series(1, ?) g`, [project.id, reader.id, issues]);
    await db.raw('INSERT INTO issue_labels (issue_id, label_id) SELECT id, ? FROM issues WHERE project_id = ?', [huge, project.id]);
    await db.raw('INSERT INTO issue_labels (issue_id, label_id) SELECT id, ? FROM issues WHERE project_id = ? AND iid <= ?', [minus, project.id, negated]);
    return { group, project, reader, guest };
  }

  const bound = async (viewer: Parameters<typeof viewerOf>[0], parent: ConstructorParameters<typeof IssueFinder>[2]) => {
    const finder = new IssueFinder(svc.deps.db, viewerOf(viewer), parent, { labels: ['huge'], not: { labels: ['minus'] } });
    await Promise.all([finder.resolveNames(), finder.resolveProjects()]);
    return finder.countLowerBound(async <T>(q: Knex.QueryBuilder) => (await q) as T[], 10_000);
  };

  it('omits X-Total on the group and instance lists when the bound exceeds 10,000, the page still filtered', async () => {
    const { group, project, reader, guest } = await seed('lbig', 12_000, 1_500);
    expect(await bound({ user: reader } as never, { kind: 'group', groupId: group.id })).toBe(10_500);
    for (const who of [reader, guest]) {
      for (const [list, on] of [[`/api/v4/groups/${group.id}/issues`, world.onGroup(group, who)], [`/api/v4/issues?scope=all`, world.as(who)]] as const) {
        const res = await on.get(`${list}${list.includes('?') ? '&' : '?'}labels=huge&not[labels]=minus&per_page=5`).expect(200);
        expect(res.headers).not.toHaveProperty('x-total');
        expect(res.headers).not.toHaveProperty('x-total-pages');
        expect(res.headers['x-next-page']).toBe('2');
        expect(res.body.map((i: { iid: number }) => i.iid).every((iid: number) => iid > 1_500)).toBe(true);
        expect(res.body.every((i: { project_id: number }) => i.project_id === project.id)).toBe(true);
      }
    }
  });

  it('counts exactly when the bound does not exceed 10,000', async () => {
    const { group, reader, guest } = await seed('lsmall', 12_000, 2_500);
    // 9,500 issues carry huge and not minus; the Guest cannot read the 190 confidential ones among them
    expect(await bound({ user: reader } as never, { kind: 'group', groupId: group.id })).toBe(9_500);
    const total = async (who: typeof reader) => (await world.onGroup(group, who).get(`/api/v4/groups/${group.id}/issues?labels=huge&not[labels]=minus&per_page=1`).expect(200)).headers['x-total'];
    expect(await total(reader)).toBe('9500');
    expect(await total(guest)).toBe(String(9_500 - 190));
  });
});
