import { AccessLevel } from '@anvil/auth';
import { findVisible } from '../../src/snippets/snippet-finder';
import { SnippetFixture, snippetFixture } from '../support/snippets';

describe('findVisible (what snippet notes and emoji look snippets up with)', () => {
  let f: SnippetFixture;
  beforeAll(async () => {
    f = await snippetFixture();
  });
  afterAll(() => f?.svc.stop());

  it('tells a missing snippet from a hidden one', async () => {
    const { id } = await f.snippet({ visibility: 'private' });
    const db = f.svc.deps.db;
    const member = { userId: f.guest.id, projectLevel: AccessLevel.GUEST };
    const outsider = { userId: f.outsider.id, projectLevel: 0 };
    expect(await findVisible(db, f.project.id, id, member)).toEqual({ found: true, snippet: expect.objectContaining({ id, visibility: 'private', authorId: f.reporter.id }) });
    expect(await findVisible(db, f.project.id, id, outsider)).toEqual({ found: false, reason: 'hidden' });
    expect(await findVisible(db, f.project.id, 999999, member)).toEqual({ found: false, reason: 'missing' });
    expect(await findVisible(db, f.project.id + 1, id, member)).toEqual({ found: false, reason: 'missing' });
  });

  it('shows internal snippets to signed-in non-members, not to anonymous callers', async () => {
    const { id } = await f.snippet({ visibility: 'internal' });
    const db = f.svc.deps.db;
    expect((await findVisible(db, f.project.id, id, { userId: f.outsider.id, projectLevel: 0 })).found).toBe(true);
    expect(await findVisible(db, f.project.id, id, { userId: null, projectLevel: 0 })).toEqual({ found: false, reason: 'hidden' });
  });
});
