import type { TestService } from '@anvil/testing';
import { day, Dataset, seedDataset } from '../support/dataset';
import { startWorkItems, World } from '../support/world';

describe('GET /projects/:id/issues', () => {
  let svc: TestService;
  let d: Dataset;

  beforeAll(async () => {
    svc = await startWorkItems();
    d = await seedDataset(new World(svc));
  });
  afterAll(() => svc?.stop());

  const iids = async (query: string, who = () => d.alice): Promise<number[]> => {
    const res = await d.world.onProject(d.p1, who()).get(`/api/v4/projects/${d.p1.id}/issues${query ? `?${query}` : ''}`).expect(200);
    return res.body.map((i: { iid: number }) => i.iid);
  };
  const set = async (query: string, who = () => d.alice) => (await iids(query, who)).sort((a, b) => a - b);

  describe('defaults', () => {
    it('lists every issue, newest first, as issue entities without subscribed', async () => {
      expect(await iids('')).toEqual([5, 4, 3, 2, 1, 6]);
      const res = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?iids[]=1`).expect(200);
      expect(res.body[0]).not.toHaveProperty('subscribed');
      expect(res.body[0]).toMatchObject({ labels: ['bug', 'ui'], upvotes: 1, milestone: { title: 'v1' }, references: { short: '#1', relative: '#1' } });
    });
  });

  it.each([
    ['state=opened', [1, 3, 4, 5, 6]],
    ['state=closed', [2]],
    ['state=all', [1, 2, 3, 4, 5, 6]],
    ['labels=bug', [1, 2]],
    ['labels=bug,ui', [1]],
    ['labels[]=bug&labels[]=ui', [1]],
    ['labels=BUG', []],
    ['labels=priority', [5]],
    ['labels=missing', []],
    ['labels=None', [6]],
    ['labels=none', [6]],
    ['labels=No+Label', [6]],
    ['labels=Any', [1, 2, 3, 4, 5]],
    ['milestone=v1', [1]],
    ['milestone=Q1', [5]],
    ['milestone=None', [3, 6]],
    ['milestone=Any', [1, 2, 4, 5]],
    ['milestone_id=None', [3, 6]],
    ['milestone_id=Any', [1, 2, 4, 5]],
    ['milestone_id=Upcoming', [1, 5]],
    ['milestone_id=Started', [1, 4, 5]],
    ['due_date=0', [3, 6]],
    ['due_date=any', [1, 2, 4, 5]],
    ['due_date=today', [1]],
    ['due_date=tomorrow', [2]],
    ['due_date=overdue', [4]],
    ['due_date=next_month_and_previous_two_weeks', [1, 2, 4, 5]],
    ['due_date=', [1, 2, 3, 4, 5, 6]],
    ['iids[]=1&iids[]=3', [1, 3]],
    ['iids=2,4', [2, 4]],
    ['search=login', [1]],
    ['search=editor', [2]],
    ['search=editor&in=title', []],
    ['search=sign&in=description', [1]],
    ['search=polish+ui', [3]],
    ['search=Docs', [6]],
    ['search=ab', []],
    ['created_after=2021-01-01T00:00:00Z', [1, 2, 3, 4, 5]],
    ['created_before=2021-01-01T00:00:00Z', [6]],
    ['created_before=2020-01-01T00:00:00.000Z', [6]],
    ['created_after=2020-01-01T00:00:00.001Z&created_before=2021-01-01T00:00:00Z', []],
    ['updated_before=2021-01-01T00:00:00Z', [6]],
    ['updated_after=2021-01-01T00:00:00Z', [1, 2, 3, 4, 5]],
    ['confidential=true', [4]],
    ['confidential=False', [1, 2, 3, 5, 6]],
    ['issue_type=incident', [5]],
    ['issue_type=issue', [1, 2, 3, 4, 6]],
    ['my_reaction_emoji=thumbsup', [1]],
    ['my_reaction_emoji=Any', [1, 3]],
    ['my_reaction_emoji=None', [2, 4, 5, 6]],
    ['weight=1', [1]],
    ['weight=None', [2, 4, 5, 6]],
    ['weight=Any', [1, 3]],
    ['health_status=at_risk', [5]],
    ['health_status=none', [1, 2, 3, 4, 6]],
    ['health_status=Any', [5]],
    ['iteration_id=Current', [3]],
    ['iteration_id=None', [1, 2, 4, 5, 6]],
    ['iteration_id=Any', [3]],
    ['iteration_title=Sprint+1', [3]],
    ['not[labels]=bug', [3, 4, 5, 6]],
    ['not[labels]=bug,ui', [4, 5, 6]],
    ['not[milestone]=v1', [2, 3, 4, 5, 6]],
    ['not[milestone_id]=Upcoming', [4]],
    ['not[milestone_id]=Started', [2]],
    ['not[iids][]=1', [2, 3, 4, 5, 6]],
    ['not[my_reaction_emoji]=thumbsup', [2, 3, 4, 5, 6]],
    ['not[weight]=1', [2, 3, 4, 5, 6]],
    ['not[iteration_title]=Sprint+1', [1, 2, 4, 5, 6]],
    ['not[health_status]=at_risk', [1, 2, 3, 4, 6]],
    ['state=opened&labels=ui', [1, 3]],
    ['labels=bug&not[labels]=ui', [2]],
    ['milestone=Q1&assignee_username=carol', [5]],
    ['search=plan&confidential=true', [4]],
    ['due_date=any&state=opened&not[milestone]=old', [1, 5]],
    ['labels=Any&milestone_id=Started&my_reaction_emoji=None', [4, 5]],
  ])('%s', async (query, expected) => {
    expect(await set(query)).toEqual(expected);
  });

  it.each([
    ['due_date=week', [day(0), day(1), day(-3), day(10)]],
    ['due_date=month', [day(0), day(1), day(-3), day(10)]],
  ])('%s matches the current calendar range', async (query, dues) => {
    const all = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues`).expect(200);
    const now = new Date();
    const dow = (now.getUTCDay() + 6) % 7;
    const [from, to] = query.endsWith('week')
      ? [day(-dow), day(6 - dow)]
      : [new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10), new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10)];
    const expected = all.body.filter((i: { due_date: string | null }) => i.due_date && i.due_date >= from && i.due_date <= to).map((i: { iid: number }) => i.iid).sort();
    expect(dues.length).toBe(4);
    expect(await set(query)).toEqual(expected);
  });

  describe('people', () => {
    it.each([
      ['author_id', () => `author_id=${d.bob.id}`, [2, 4]],
      ['author_username', () => 'author_username=alice', [1, 3]],
      ['author_username case-insensitively', () => 'author_username=ALICE', [1, 3]],
      ['assignee_id', () => `assignee_id=${d.bob.id}`, [1, 5]],
      ['assignee_id=None', () => 'assignee_id=None', [2, 4, 6]],
      ['assignee_id=any', () => 'assignee_id=any', [1, 3, 5]],
      ['assignee_username', () => 'assignee_username=carol', [3, 5]],
      ['assignee_username[]', () => 'assignee_username[]=bob', [1, 5]],
      ['closed_by_id', () => `closed_by_id=${d.alice.id}`, [2]],
      ['not[author_id]', () => `not[author_id]=${d.bob.id}`, [1, 3, 5, 6]],
      ['not[author_username]', () => 'not[author_username]=alice', [2, 4, 5, 6]],
      ['not[assignee_id]', () => `not[assignee_id]=${d.bob.id}`, [2, 3, 4, 6]],
      ['not[assignee_username]', () => 'not[assignee_username]=carol', [1, 2, 4, 6]],
      ['epic_id', () => `epic_id=${d.epicId}`, [3]],
      ['epic_id=None', () => 'epic_id=None', [1, 2, 4, 5, 6]],
      ['not[epic_id]', () => `not[epic_id]=${d.epicId}`, [1, 2, 4, 5, 6]],
      ['iteration_id', () => `iteration_id=${d.iterationId}`, [3]],
      ['not[iteration_id]', () => `not[iteration_id]=${d.iterationId}`, [1, 2, 4, 5, 6]],
      ['unknown author', () => 'author_username=nobody', []],
    ])('%s', async (_name, query, expected) => {
      expect(await set(query())).toEqual(expected);
    });

    it('scope=created_by_me and assigned_to_me (dashes too) follow the caller', async () => {
      expect(await set('scope=created_by_me')).toEqual([1, 3]);
      expect(await set('scope=created-by-me')).toEqual([1, 3]);
      expect(await set('scope=assigned_to_me', () => d.bob)).toEqual([1, 5]);
      expect(await set('scope=all', () => d.bob)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('my_reaction_emoji is the caller’s own reaction', async () => {
      expect(await set('my_reaction_emoji=thumbsup', () => d.bob)).toEqual([]);
      expect(await set('my_reaction_emoji=None', () => d.bob)).toEqual([1, 2, 3, 4, 5, 6]);
    });
  });

  describe('ordering', () => {
    it.each([
      ['order_by=created_at&sort=asc', [6, 1, 2, 3, 4, 5]],
      ['order_by=title&sort=asc', [2, 6, 1, 5, 4, 3]],
      ['order_by=title', [3, 4, 5, 1, 6, 2]],
      ['order_by=due_date&sort=asc', [4, 1, 2, 5, 3, 6]],
      ['order_by=due_date&sort=desc', [5, 2, 1, 4, 6, 3]],
      ['order_by=popularity', [1, 6, 5, 4, 3, 2]],
      ['order_by=weight&sort=asc', [1, 3, 2, 4, 5, 6]],
      ['order_by=milestone_due&sort=asc', [4, 1, 5, 2, 3, 6]],
      ['order_by=label_priority&sort=asc', [1, 2, 3, 4, 5, 6]],
      ['order_by=priority&sort=asc', [4, 1, 5, 2, 3, 6]],
      ['order_by=relative_position&sort=asc', [1, 2, 3, 4, 5, 6]],
      ['author_username=alice&state=opened&order_by=title&sort=asc', [1, 3]],
    ])('%s', async (query, expected) => {
      expect(await iids(query)).toEqual(expected);
    });

    it('orders by updated_at', async () => {
      const res = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?order_by=updated_at&sort=asc`).expect(200);
      const stamps = res.body.map((i: { updated_at: string }) => i.updated_at);
      expect([...stamps].sort()).toEqual(stamps);
    });
  });

  describe('with_labels_details', () => {
    it('embeds label objects sorted by title', async () => {
      const res = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?iids[]=1&with_labels_details=True`).expect(200);
      expect(res.body[0].labels).toEqual([
        { id: expect.any(Number), name: 'bug', color: '#d9534f', description: null, description_html: '', text_color: '#FFFFFF', remove_on_close: false },
        { id: expect.any(Number), name: 'ui', color: '#eeeeee', description: null, description_html: '', text_color: '#333333', remove_on_close: false },
      ]);
    });
  });

  describe('pagination', () => {
    it('sets GitLab’s headers and Link', async () => {
      const res = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?per_page=2&page=2`).expect(200);
      expect(res.body.map((i: { iid: number }) => i.iid)).toEqual([3, 2]);
      expect(res.headers).toMatchObject({ 'x-total': '6', 'x-total-pages': '3', 'x-per-page': '2', 'x-page': '2', 'x-next-page': '3', 'x-prev-page': '1' });
      const link = res.headers.link as string;
      const rels = Object.fromEntries(link.split(', ').map((part) => {
        const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part) as RegExpExecArray;
        return [rel, new URL(url).searchParams.get('page')];
      }));
      expect(rels).toEqual({ prev: '1', next: '3', first: '1', last: '3' });
      expect(link.startsWith(`<http://127.0.0.1:8080/api/v4/projects/${d.p1.id}/issues?`)).toBe(true);
      const last = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?per_page=2&page=3`).expect(200);
      expect(last.headers['x-next-page']).toBe('');
      expect(last.headers.link).not.toContain('rel="next"');
    });

    it('counts only what the filters keep', async () => {
      const res = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?labels=bug&per_page=1`).expect(200);
      expect(res.headers['x-total']).toBe('2');
    });

    it('counts up to 10,000 issues; beyond, omits X-Total, X-Total-Pages and rel="last", as GitLab does', async () => {
      const big = await d.world.project('big', { visibility: 'public' });
      await svc.deps.db.raw(
        `INSERT INTO issues (project_id, iid, title, author_id) SELECT ?, g, 'Issue ' || g, ? FROM generate_series(1, 10000) g`,
        [big.id, d.alice.id],
      );
      const list = (query: string) => d.world.onProject(big, d.alice).get(`/api/v4/projects/${big.id}/issues?${query}`).expect(200);
      const counted = await list('per_page=20&page=2');
      expect(counted.headers).toMatchObject({ 'x-total': '10000', 'x-total-pages': '500', 'x-next-page': '3', 'x-prev-page': '1' });
      expect(counted.headers.link).toContain('rel="last"');
      await svc.deps.db.raw(`INSERT INTO issues (project_id, iid, title, author_id) VALUES (?, 10001, 'One more', ?)`, [big.id, d.alice.id]);
      const uncounted = await list('per_page=20&page=2');
      expect(uncounted.body).toHaveLength(20);
      expect(uncounted.headers).toMatchObject({ 'x-per-page': '20', 'x-page': '2', 'x-next-page': '3', 'x-prev-page': '1' });
      expect(uncounted.headers).not.toHaveProperty('x-total');
      expect(uncounted.headers).not.toHaveProperty('x-total-pages');
      expect(uncounted.headers.link.split(', ').map((l: string) => /rel="(\w+)"/.exec(l)?.[1])).toEqual(['prev', 'next', 'first']);
      const filtered = await list('state=opened&per_page=1');
      expect(filtered.headers).not.toHaveProperty('x-total');
    });
  });

  describe('bad input', () => {
    it.each([
      ['state=merged', 'state does not have a valid value'],
      ['order_by=size', 'order_by does not have a valid value'],
      ['due_date=yesterday', 'due_date does not have a valid value'],
      ['assignee_id=someone', 'assignee_id should be an integer, none, or any, however got someone'],
      ['assignee_username[]=a&assignee_username[]=b', 'assignee_username allows one value, but found 2: a, b'],
      ['author_id=1&author_username=x', 'author_id, author_username are mutually exclusive'],
      ['milestone=v1&milestone_id=Any', 'milestone_id, milestone are mutually exclusive'],
      ['milestone_id=Later', 'milestone_id does not have a valid value'],
      ['created_after=yesterday', 'created_after is invalid'],
      ['iids[]=x', 'iids is invalid'],
      ['confidential=maybe', 'confidential is invalid'],
      ['page=0', 'page does not have a valid value'],
    ])('%s → 400', async (query, error) => {
      const res = await d.world.onProject(d.p1, d.alice).get(`/api/v4/projects/${d.p1.id}/issues?${query}`).expect(400);
      expect(res.body).toEqual({ error });
    });
  });

  describe('who sees what', () => {
    it('hides a confidential issue from a guest who is neither author nor assignee', async () => {
      expect(await set('', () => d.carol)).toEqual([1, 2, 3, 5, 6]);
    });
    it('shows everything to an administrator and to reporters', async () => {
      expect(await set('', () => d.admin)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await set('', () => d.alice)).toEqual([1, 2, 3, 4, 5, 6]);
    });
    it('shows the author their confidential issue', async () => {
      expect(await set('confidential=true', () => d.bob)).toEqual([4]);
    });
    it('lets anonymous callers list a public project, without confidential issues', async () => {
      const res = await d.world.onProject(d.pub, null).get(`/api/v4/projects/${d.pub.id}/issues`).expect(200);
      expect(res.body.map((i: { title: string }) => i.title)).toEqual(['Public issue']);
    });
  });
});
