import type { Actor } from '@anvil/auth';
import type { Knex } from 'knex';
import type { TestService } from '@anvil/testing';
import { viewerOf } from '../../src/access/viewer';
import { IssueFinder } from '../../src/issues/finder/issue-finder';
import { Dataset, seedDataset } from '../support/dataset';
import { startWorkItems, World } from '../support/world';

/**
 * `X-Total` of the project, group and instance lists under label and assignee filters, which is
 * counted from `issue_filter_keys` or summed from `issue_filter_counts` (both kept by triggers)
 * while the page itself reads `issues`: the count of a one-issue page must equal the length of the
 * whole list, for every caller, before and after the writes that change what the keys copy, and
 * after concurrent writes.
 */
describe('GET issue lists: X-Total under label and assignee filters', () => {
  let svc: TestService;
  let d: Dataset;

  beforeAll(async () => {
    svc = await startWorkItems();
    d = await seedDataset(new World(svc));
    const P = (u: Actor) => d.world.onProject(d.p1, u);
    // 7: a confidential bug by bob nobody is assigned to; 8: a confidential bug assigned to carol.
    await P(d.bob).post(`/api/v4/projects/${d.p1.id}/issues`).send({ title: 'Hidden bug', labels: 'bug', confidential: true }).expect(201);
    await P(d.alice).post(`/api/v4/projects/${d.p1.id}/issues`).send({ title: 'Shared bug', labels: 'bug,ui', confidential: true, assignee_ids: [d.carol.id] }).expect(201);
  });
  afterAll(() => svc?.stop());

  const QUERIES = [
    'labels=bug', 'labels=ui', 'labels=bug,ui', 'labels=priority', 'labels=bug&state=opened', 'labels=bug&not[labels]=ui',
    'labels=ui&milestone=None', 'labels=bug&order_by=updated_at', 'labels=bug&assignee_username=carol', 'assignee_username=carol',
    'assignee_username=bob&state=opened', 'labels=None&assignee_username=bob', 'labels=Any&assignee_username=carol',
    'labels=bug&confidential=true', 'labels=bug&author_username=bob', 'labels=ui&my_reaction_emoji=tada',
    'labels=bug&state=closed', 'labels=bug&state=all', 'labels=backend&state=opened', 'assignee_username=carol&state=opened',
    'assignee_username=carol&state=closed', 'labels=bug&sort=asc', 'assignee_username=nobody-here', 'labels=no-such-label',
    'milestone=v1', 'milestone=v2&state=closed', 'milestone=old', 'milestone=Q1&state=opened', 'milestone=None', 'milestone=no-such',
    'milestone=v1&labels=bug',
  ];
  const lists = () => [
    { name: 'project', path: `/api/v4/projects/${d.p1.id}/issues`, on: (u: Actor) => d.world.onProject(d.p1, u) },
    { name: 'group', path: `/api/v4/groups/${d.group.id}/issues`, on: (u: Actor) => d.world.onGroup(d.group, u) },
    { name: 'instance', path: '/api/v4/issues?scope=all', on: (u: Actor) => d.world.as(u) },
  ];

  /** For each caller, list and query: [whole list length, X-Total of its one-issue first page]. */
  async function totals(callers: Actor[], queries = QUERIES): Promise<Record<string, [number, number]>> {
    const out: Record<string, [number, number]> = {};
    for (const who of callers) {
      for (const list of lists()) {
        for (const q of queries) {
          const url = `${list.path}${list.path.includes('?') ? '&' : '?'}${q}`;
          const all = await list.on(who).get(`${url}&per_page=100`).expect(200);
          const one = await list.on(who).get(`${url}&per_page=1`).expect(200);
          out[`${who.username} ${list.name} ${q}`] = [all.body.length, Number(one.headers['x-total'])];
        }
      }
    }
    return out;
  }

  const agree = (t: Record<string, [number, number]>) => Object.fromEntries(Object.entries(t).map(([k, [n]]) => [k, [n, n]]));

  it('reads the count of a label or assignee filter from the filter keys', async () => {
    const finder = new IssueFinder(svc.deps.db, viewerOf({ user: d.alice } as never), { kind: 'group', groupId: d.group.id }, { labels: ['bug'], state: 'opened' });
    await finder.resolveNames();
    expect(finder.countable().query.toString()).toContain('issue_filter_keys');
    const dated = new IssueFinder(svc.deps.db, viewerOf({ user: d.alice } as never), { kind: 'group', groupId: d.group.id }, { labels: ['bug'], dueDate: 'overdue' });
    await dated.resolveNames();
    expect(dated.countable().query.toString()).not.toContain('issue_filter_keys');
  });

  it('sums the counters when one label or one assignee (and the state) filters the list, and only then', async () => {
    const run = async (parent: ConstructorParameters<typeof IssueFinder>[2], filters: ConstructorParameters<typeof IssueFinder>[3]) => {
      const finder = new IssueFinder(svc.deps.db, viewerOf({ user: d.alice } as never), parent, filters);
      await finder.resolveNames();
      return finder.countFromCounters(async <T>(q: Knex.QueryBuilder) => (await q) as T[]);
    };
    const group = { kind: 'group' as const, groupId: d.group.id };
    expect(await run(group, { labels: ['bug'], state: 'opened', nonArchived: true })).toEqual(expect.any(Number));
    expect(await run({ kind: 'none' }, { scope: 'all', assigneeUsername: ['carol'] })).toEqual(expect.any(Number));
    expect(await run(group, { labels: ['bug'], dueDate: 'overdue' })).toBeNull();
    expect(await run(group, { labels: ['bug', 'ui'] })).toBeNull();
    expect(await run(group, { labels: ['bug'], assigneeUsername: ['carol'] })).toBeNull();
    expect(await run(group, { labels: ['bug'], not: { labels: ['ui'] } })).toBeNull();
    expect(await run({ kind: 'none' }, { scope: 'created_by_me', labels: ['bug'] })).toBeNull();
    expect(await run(group, { milestone: 'v1', state: 'opened' })).toEqual(expect.any(Number));
    expect(await run(group, { milestone: 'v1', labels: ['bug'] })).toBeNull();
    expect(await run(group, { milestone: 'None' })).toBeNull();
  });

  it('counts what the list shows, for a reporter, a guest, an assignee and an administrator', async () => {
    const t = await totals([d.alice, d.carol, d.bob, d.admin]);
    expect(t).toEqual(agree(t));
    expect(t['alice project labels=bug']).toEqual([4, 4]);
    expect(t['carol project labels=bug']).toEqual([3, 3]);
    expect(t['carol group labels=bug']).toEqual([3, 3]);
    expect(t['bob instance labels=bug']).toEqual([4, 4]);
    expect(t['alice group assignee_username=carol']).toEqual([3, 3]);
  }, 180_000);

  it('follows relabelling, closing, reassigning, confidentiality, deleted issues and deleted labels', async () => {
    const P = (u: Actor) => d.world.onProject(d.p1, u);
    const put = (iid: number, body: Record<string, unknown>) => P(d.owner).put(`/api/v4/projects/${d.p1.id}/issues/${iid}`).send(body).expect(200);
    await put(2, { labels: 'ui' });
    await put(1, { state_event: 'close' });
    await put(8, { confidential: false, assignee_ids: [d.bob.id] });
    await put(3, { assignee_ids: [d.bob.id, d.carol.id] });
    await P(d.owner).delete(`/api/v4/projects/${d.p1.id}/issues/7`).expect(204);
    const ui = (await P(d.owner).get(`/api/v4/projects/${d.p1.id}/labels`).expect(200)).body.find((l: { name: string }) => l.name === 'ui');
    await P(d.owner).delete(`/api/v4/projects/${d.p1.id}/labels/${ui.id}`).expect(204);
    const t = await totals([d.alice, d.carol]);
    expect(t).toEqual(agree(t));
    expect(t['alice project labels=bug']).toEqual([2, 2]);
    expect(t['alice project labels=bug&state=opened']).toEqual([1, 1]);
    expect(t['carol project labels=bug']).toEqual([2, 2]);
    expect(t['alice project assignee_username=bob&state=opened']).toEqual([3, 3]);
  }, 180_000);

  it('keeps one key row per label and assignee of each issue, copying the issue', async () => {
    const diff = await svc.deps.db.raw(`
      (SELECT k.kind, k.key_id, i.id, i.project_id, i.state, i.created_at, i.confidential, i.author_id, i.milestone_id, i.label_ids, i.assignee_ids
         FROM issues i, LATERAL (SELECT 'l'::"char", unnest(i.label_ids) UNION ALL SELECT 'a'::"char", unnest(i.assignee_ids)) k (kind, key_id)
       EXCEPT SELECT * FROM issue_filter_keys)
      UNION ALL
      (SELECT * FROM issue_filter_keys
       EXCEPT SELECT k.kind, k.key_id, i.id, i.project_id, i.state, i.created_at, i.confidential, i.author_id, i.milestone_id, i.label_ids, i.assignee_ids
         FROM issues i, LATERAL (SELECT 'l'::"char", unnest(i.label_ids) UNION ALL SELECT 'a'::"char", unnest(i.assignee_ids)) k (kind, key_id))`);
    expect(diff.rows).toEqual([]);
    // labels: 1 bug, 4 backend, 5 priority, 8 bug; assignees: 1 bob, 3 bob+carol, 5 bob+carol, 8 bob
    expect(Number((await svc.deps.db('issue_filter_keys').count({ n: '*' }).first())?.n)).toBe(10);
  });

  /** The counters as they are, and as a count of the keys gives them. */
  async function counters(): Promise<{ summed: unknown[]; counted: unknown[] }> {
    const summed = await svc.deps.db.raw(`SELECT kind, key_id, project_id, state, confidential, sum(n)::int AS n FROM issue_filter_counts
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5`);
    const counted = await svc.deps.db.raw(`SELECT kind, key_id, project_id, state, confidential, count(*)::int AS n
      FROM (SELECT kind, key_id, project_id, state, confidential FROM issue_filter_keys
            UNION ALL SELECT 'm'::"char", milestone_id, project_id, state, confidential FROM issues WHERE milestone_id IS NOT NULL) k
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`);
    return { summed: summed.rows, counted: counted.rows };
  }

  it('keeps the counters equal to a count of the keys and milestones under concurrent creates, updates, closes, label and milestone changes', async () => {
    const P = (u: Actor) => d.world.onProject(d.p1, u);
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      P(d.owner).post(`/api/v4/projects/${d.p1.id}/issues`).send({ title: `race ${i}`, labels: i % 2 ? 'bug' : 'bug,backend', assignee_ids: i % 3 ? [d.carol.id] : [], confidential: i % 4 === 0 }).expect(201)));
    const iids: number[] = created.map((r) => r.body.iid);
    const put = (iid: number, body: Record<string, unknown>) => P(d.owner).put(`/api/v4/projects/${d.p1.id}/issues/${iid}`).send(body);
    const milestones: number[] = (await P(d.owner).get(`/api/v4/projects/${d.p1.id}/milestones`).expect(200)).body.map((m: { id: number }) => m.id);
    const writes = iids.flatMap((iid, i) => [
      put(iid, { milestone_id: milestones[i % milestones.length] }),
      put(iid, { state_event: i % 2 ? 'close' : 'reopen' }),
      put(iid, { add_labels: 'priority', remove_labels: i % 3 ? 'bug' : '' }),
      put(iid, { assignee_ids: i % 2 ? [d.bob.id] : [d.bob.id, d.carol.id] }),
      put(iid, { confidential: i % 3 === 0 }),
    ]);
    const answers = await Promise.all(writes);
    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    await Promise.all(iids.slice(0, 3).map((iid) => P(d.owner).delete(`/api/v4/projects/${d.p1.id}/issues/${iid}`).expect(204)));
    const c = await counters();
    expect(c.summed).toEqual(c.counted);
    expect(c.counted.some((r) => (r as { kind: string }).kind === 'm')).toBe(true);
    await P(d.owner).delete(`/api/v4/projects/${d.p1.id}/milestones/${milestones[0]}`).expect(204);
    const afterDelete = await counters();
    expect(afterDelete.summed).toEqual(afterDelete.counted);
    const t = await totals([d.alice, d.carol, d.bob], ['labels=bug', 'labels=priority&state=opened', 'labels=priority&state=closed', 'assignee_username=bob', 'assignee_username=carol&state=opened', 'milestone=v1', 'milestone=v2&state=opened']);
    expect(t).toEqual(agree(t));
  }, 180_000);
});
