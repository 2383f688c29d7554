import type { Actor } from '@anvil/auth';
import type { TestService } from '@anvil/testing';
import { Dataset, seedDataset } from '../support/dataset';
import { startWorkItems, World } from '../support/world';

describe('GET /issues', () => {
  let svc: TestService;
  let d: Dataset;

  beforeAll(async () => {
    svc = await startWorkItems();
    d = await seedDataset(new World(svc));
  });
  afterAll(() => svc?.stop());

  const titles = async (who: Actor | null, query = ''): Promise<string[]> => {
    const res = await d.world.as(who).get(`/api/v4/issues${query ? `?${query}` : ''}`).expect(200);
    return res.body.map((i: { title: string }) => i.title).sort();
  };
  const P1 = ['Crash on save', 'Docs', 'Login fails', 'Outage incident', 'Secret plan', 'UI polish'];

  describe('anonymous', () => {
    it('needs scope=all (401 otherwise)', async () => {
      await d.world.as(null).get('/api/v4/issues').expect(401, { message: '401 Unauthorized' });
      await d.world.as(null).get('/api/v4/issues?scope=created_by_me').expect(401, { message: '401 Unauthorized' });
    });
    it('sees public projects only', async () => {
      expect(await titles(null, 'scope=all')).toEqual(['Public issue']);
    });
  });

  describe('defaults to the caller’s own issues', () => {
    it('scope=created_by_me', async () => {
      expect(await titles(d.alice)).toEqual(['Login fails', 'UI polish']);
      expect(await titles(d.dave)).toEqual(['Public issue']);
    });
    it('scope=assigned_to_me', async () => {
      expect(await titles(d.carol, 'scope=assigned_to_me')).toEqual(['Outage incident', 'UI polish']);
    });
  });

  describe('scope=all', () => {
    it('shows a non-member public issues only', async () => {
      expect(await titles(d.dave, 'scope=all')).toEqual(['Public issue']);
    });
    it('shows a guest the readable projects without others’ confidential issues', async () => {
      expect(await titles(d.carol, 'scope=all')).toEqual([...P1.filter((t) => t !== 'Secret plan'), 'Public issue'].sort());
    });
    it('shows a reporter the confidential issues of their project', async () => {
      expect(await titles(d.alice, 'scope=all')).toEqual([...P1, 'Public issue'].sort());
    });
    it('shows a group owner the group’s projects through the group membership', async () => {
      expect(await titles(d.owner, 'scope=all')).toEqual([...P1, 'Public issue', 'Subgroup issue'].sort());
    });
    it('shows an administrator everything, archived with non_archived=false', async () => {
      expect(await titles(d.admin, 'scope=all')).toEqual([...P1, 'Hidden issue', 'Public issue', 'Subgroup issue'].sort());
      expect(await titles(d.admin, 'scope=all&non_archived=false')).toEqual([...P1, 'Archived issue', 'Hidden issue', 'Public issue', 'Subgroup issue'].sort());
    });
  });

  describe('filters across projects', () => {
    it.each([
      ['scope=all&labels=bug&state=opened', ['Login fails']],
      ['scope=all&search=issue&in=title', ['Public issue']],
      ['scope=all&not[labels]=bug&labels=Any', ['Outage incident', 'Secret plan', 'UI polish']],
      ['scope=all&iids[]=1&not[iids][]=2', ['Login fails', 'Public issue']],
      ['scope=all&milestone_id=None&state=opened&confidential=false', ['Docs', 'Public issue', 'UI polish']],
      ['scope=all&issue_type=incident', ['Outage incident']],
      ['scope=all&due_date=overdue', ['Secret plan']],
    ])('%s', async (query, expected) => {
      expect(await titles(d.alice, query)).toEqual(expected);
    });

    it('filters by author across projects', async () => {
      expect(await titles(d.alice, `scope=all&author_id=${d.dave.id}`)).toEqual(['Public issue']);
    });
  });

  it('gives full references (relative is the short form with no context)', async () => {
    const res = await d.world.as(d.dave).get('/api/v4/issues?scope=all').expect(200);
    expect(res.body[0].references).toEqual({ short: '#1', relative: '#1', full: 'oth/pub#1' });
  });

  it('paginates across projects with GitLab’s headers', async () => {
    const res = await d.world.as(d.alice).get('/api/v4/issues?scope=all&per_page=3').expect(200);
    expect(res.body).toHaveLength(3);
    expect(res.headers).toMatchObject({ 'x-total': '7', 'x-total-pages': '3', 'x-next-page': '2' });
  });

  it('counts with issues_statistics', async () => {
    const res = await d.world.as(d.alice).get('/api/v4/issues_statistics?scope=all').expect(200);
    expect(res.body).toEqual({ statistics: { counts: { all: 7, closed: 1, opened: 6 } } });
  });
});
