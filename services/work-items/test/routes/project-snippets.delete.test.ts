import { IdentityEvents } from '@anvil/events';
import { SnippetFixture, snippetFixture } from '../support/snippets';

describe('DELETE /projects/:id/snippets/:snippet_id', () => {
  let f: SnippetFixture;
  beforeAll(async () => {
    f = await snippetFixture();
  });
  afterAll(() => f?.svc.stop());

  const stored = async (id: number) => !!(await f.svc.deps.db('snippets').where({ id }).first());

  describe('as the author', () => {
    it('deletes the snippet and its files (204, empty body, event written)', async () => {
      const s = await f.snippet({ files: [{ file_path: 'a', content: 'a' }, { file_path: 'b', content: 'b' }] });
      const res = await f.on(f.reporter).delete(f.path(s.id)).expect(204);
      expect(res.text).toBe('');
      expect(await stored(s.id)).toBe(false);
      expect(await f.svc.deps.db('snippet_files').where({ snippet_id: s.id })).toEqual([]);
      const ev = await f.svc.deps.db('outbox').where({ type: 'work-items.snippet.deleted' }).whereRaw("data->>'id' = ?", [String(s.id)]).first();
      expect(ev.data).toMatchObject({ id: s.id, project_id: f.project.id, files: ['a', 'b'], actor_id: f.reporter.id });
      await f.on(f.reporter).get(f.path(s.id)).expect(404, { message: '404 Not found' });
    });
  });

  describe('as a maintainer or administrator', () => {
    it('deletes anyone\'s snippet', async () => {
      const a = await f.snippet();
      const b = await f.snippet({ visibility: 'private' });
      await f.on(f.maintainer).delete(f.path(a.id)).expect(204, '');
      await f.on(f.admin).delete(f.path(b.id)).expect(204, '');
      expect(await stored(a.id)).toBe(false);
      expect(await stored(b.id)).toBe(false);
    });
  });

  describe('without the right', () => {
    it('is 403 for another reporter, a guest and a non-member who can see it; 401 anonymous', async () => {
      const s = await f.snippet();
      for (const who of [f.otherReporter, f.guest, f.outsider]) await f.on(who).delete(f.path(s.id)).expect(403, { message: '403 Forbidden' });
      await f.on(null).delete(f.path(s.id)).expect(401, { message: '401 Unauthorized' });
      expect(await stored(s.id)).toBe(true);
    });

    it('is 404 Snippet Not Found for a hidden or unknown snippet', async () => {
      const s = await f.snippet({ visibility: 'private' });
      await f.on(f.outsider).delete(f.path(s.id)).expect(404, { message: '404 Snippet Not Found' });
      await f.on(f.maintainer).delete(f.path(999999)).expect(404, { message: '404 Snippet Not Found' });
      expect(await stored(s.id)).toBe(true);
    });
  });

  describe('with If-Unmodified-Since', () => {
    it('is 412 when the snippet changed after that time, and deletes otherwise', async () => {
      const s = await f.snippet();
      await f.on(f.reporter).delete(f.path(s.id)).set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT').expect(412, { message: '412 Precondition Failed' });
      expect(await stored(s.id)).toBe(true);
      await f.on(f.reporter).delete(f.path(s.id)).set('If-Unmodified-Since', new Date(Date.now() + 60_000).toUTCString()).expect(204);
      expect(await stored(s.id)).toBe(false);
    });

    it('answers 403 before 412 to a caller without the right', async () => {
      const s = await f.snippet();
      await f.on(f.guest).delete(f.path(s.id)).set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT').expect(403, { message: '403 Forbidden' });
    });
  });
});

describe('when identity deletes the project', () => {
  let f: SnippetFixture;
  beforeAll(async () => {
    f = await snippetFixture();
  });
  afterAll(() => f?.svc.stop());

  it('takes its snippets and their files along', async () => {
    const s = await f.snippet();
    const p = f.project;
    const name = p.path_with_namespace.split('/').pop() as string;
    await f.world.publish(IdentityEvents.projectDeleted, {
      id: p.id, name, path: name, path_with_namespace: p.path_with_namespace, namespace_id: p.namespace_id, namespace_kind: 'group',
      group_id: p.group_id, group_traversal_ids: p.traversal, visibility: p.visibility, archived: false, creator_id: null, web_url: '',
    });
    expect(await f.svc.deps.db('snippets').where({ id: s.id })).toEqual([]);
    expect(await f.svc.deps.db('snippet_files').where({ snippet_id: s.id })).toEqual([]);
  });
});
