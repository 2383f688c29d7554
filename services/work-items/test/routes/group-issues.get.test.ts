import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { Dataset, seedDataset } from '../support/dataset';
import { startWorkItems, World } from '../support/world';

describe('GET /groups/:id/issues', () => {
  let svc: TestService;
  let d: Dataset;

  beforeAll(async () => {
    svc = await startWorkItems();
    d = await seedDataset(new World(svc));
  });
  afterAll(() => svc?.stop());

  const titles = async (who: Actor | null, query = '', group = () => d.group): Promise<string[]> => {
    const res = await d.world.onGroup(group(), who).get(`/api/v4/groups/${group().id}/issues${query ? `?${query}` : ''}`).expect(200);
    return res.body.map((i: { title: string }) => i.title).sort();
  };
  const P1 = ['Crash on save', 'Docs', 'Login fails', 'Outage incident', 'Secret plan', 'UI polish'];

  it('includes the projects of subgroups and skips archived projects by default', async () => {
    expect(await titles(d.owner)).toEqual([...P1, 'Subgroup issue'].sort());
  });

  it('includes archived projects with non_archived=false', async () => {
    expect(await titles(d.owner, 'non_archived=false')).toEqual([...P1, 'Archived issue', 'Subgroup issue'].sort());
  });

  it('lists only the projects a member of one project can read, without others’ confidential issues', async () => {
    expect(await titles(d.carol)).toEqual(P1.filter((t) => t !== 'Secret plan'));
    expect(await titles(d.alice)).toEqual(P1);
  });

  it('shows an administrator everything', async () => {
    expect(await titles(d.admin, 'non_archived=false')).toEqual([...P1, 'Archived issue', 'Subgroup issue'].sort());
  });

  it('lists a subgroup alone', async () => {
    expect(await titles(d.owner, '', () => d.sub)).toEqual(['Subgroup issue']);
  });

  it('lists a public group anonymously with public projects only', async () => {
    expect(await titles(null, '', () => d.other)).toEqual(['Public issue']);
    expect(await titles(d.admin, '', () => d.other)).toEqual(['Hidden issue', 'Public issue']);
  });

  it.each([
    ['labels=bug', ['Crash on save', 'Login fails']],
    ['state=closed', ['Crash on save']],
    ['milestone=Q1', ['Outage incident']],
    ['milestone_id=Upcoming', ['Login fails', 'Outage incident']],
    ['not[labels]=bug&labels=Any', ['Outage incident', 'Secret plan', 'UI polish']],
    ['search=issue', ['Subgroup issue']],
    ['confidential=true', ['Secret plan']],
    ['my_reaction_emoji=tada', []],
    ['scope=created_by_me', ['Docs', 'Subgroup issue']],
    ['iids[]=1', ['Login fails', 'Subgroup issue']],
  ])('%s', async (query, expected) => {
    expect(await titles(d.owner, query)).toEqual(expected);
  });

  it('gives group-relative references', async () => {
    const res = await d.world.onGroup(d.group, d.owner).get(`/api/v4/groups/${d.group.id}/issues?iids[]=1&order_by=title&sort=asc`).expect(200);
    expect(res.body.map((i: { references: unknown }) => i.references)).toEqual([
      { short: '#1', relative: 'p1#1', full: 'grp/p1#1' },
      { short: '#1', relative: 'grp/sub/p2#1', full: 'grp/sub/p2#1' },
    ]);
  });

  it('counts issues by state', async () => {
    const res = await d.world.onGroup(d.group, d.owner).get(`/api/v4/groups/${d.group.id}/issues_statistics`).expect(200);
    expect(res.body).toEqual({ statistics: { counts: { all: 8, closed: 1, opened: 7 } } });
  });
});
