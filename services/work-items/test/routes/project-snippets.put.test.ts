import { SnippetFixture, snippetFixture } from '../support/snippets';

describe('PUT /projects/:id/snippets/:snippet_id', () => {
  let f: SnippetFixture;
  beforeAll(async () => {
    f = await snippetFixture();
  });
  afterAll(() => f?.svc.stop());

  const files = async (id: number) => f.svc.deps.db('snippet_files').where({ snippet_id: id }).orderBy('position').select('path', 'content');
  const events = async (id: number) => (await f.svc.deps.db('outbox').where({ type: 'work-items.snippet.updated' }).whereRaw("data->>'id' = ?", [String(id)]).orderBy('id')).map((e) => e.data);

  describe('as the author', () => {
    it('edits title, description and visibility (200, stored, event with the changes)', async () => {
      const s = await f.snippet();
      const res = await f.on(f.reporter).put(f.path(s.id)).send({ title: 'New', description: 'desc', visibility: 'private' }).expect(200);
      expect(res.body).toMatchObject({ id: s.id, title: 'New', description: 'desc', visibility: 'private', file_name: 'a.rb', created_at: s.created_at });
      expect(res.body.updated_at >= s.updated_at).toBe(true);
      expect(await f.svc.deps.db('snippets').where({ id: s.id }).first()).toMatchObject({ title: 'New', description: 'desc', visibility_level: 0 });
      expect(await events(s.id)).toEqual([expect.objectContaining({ id: s.id, title: 'New', visibility: 'private', changes: ['title', 'description', 'visibility'], actor_id: f.reporter.id })]);
    });

    it('changes content and file_name of a one-file snippet', async () => {
      const s = await f.snippet();
      const res = await f.on(f.reporter).put(f.path(s.id)).send({ content: 'puts 2', file_name: 'b.rb' }).expect(200);
      expect(res.body.file_name).toBe('b.rb');
      expect(res.body.files).toEqual([{ path: 'b.rb', raw_url: `${s.web_url}/raw/main/b.rb` }]);
      expect(await files(s.id)).toEqual([{ path: 'b.rb', content: 'puts 2' }]);
      expect(await f.svc.deps.db('snippets').where({ id: s.id }).first()).toMatchObject({ file_name: 'b.rb', content: 'puts 2' });
      expect((await events(s.id))[0].changes).toEqual(['files']);
    });

    it('answers an edit that changes nothing with the snippet as it is, publishing nothing', async () => {
      const s = await f.snippet();
      expect((await f.on(f.reporter).put(f.path(s.id)).send({ title: 'A snippet' }).expect(200)).body).toEqual(s);
      expect(await events(s.id)).toEqual([]);
    });
  });

  describe('files[] actions', () => {
    const two = { files: [{ file_path: 'one.rb', content: '1' }, { file_path: 'two.rb', content: '2' }] };
    const put = (id: number, body: Record<string, unknown>) => f.on(f.reporter).put(f.path(id)).send(body);

    it('creates, updates, moves and deletes files in order', async () => {
      const s = await f.snippet(two);
      const actions = [
        { action: 'create', file_path: 'three.rb', content: '3' },
        { action: 'update', file_path: 'one.rb', content: '1b' },
        { action: 'move', previous_path: 'two.rb', file_path: 'lib/two.rb' },
        { action: 'delete', file_path: 'three.rb' },
        { action: 'create', content: 'gen' },
      ];
      const res = await put(s.id, { files: actions }).expect(200);
      expect(res.body.files.map((x: { path: string }) => x.path)).toEqual(['one.rb', 'lib/two.rb', 'snippetfile1.txt']);
      expect(await files(s.id)).toEqual([{ path: 'one.rb', content: '1b' }, { path: 'lib/two.rb', content: '2' }, { path: 'snippetfile1.txt', content: 'gen' }]);
      expect(await f.svc.deps.db('snippets').where({ id: s.id }).first()).toMatchObject({ file_name: 'one.rb', content: '1b' });
    });

    it('refuses content or file_name on a multi-file snippet', async () => {
      const s = await f.snippet(two);
      const message = { message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' } };
      await put(s.id, { content: 'x' }).expect(400, message);
      await put(s.id, { file_name: 'x' }).expect(400, message);
      expect(await files(s.id)).toEqual([{ path: 'one.rb', content: '1' }, { path: 'two.rb', content: '2' }]);
    });

    it.each([
      ['update without content', { action: 'update', file_path: 'one.rb' }],
      ['update that renames', { action: 'update', previous_path: 'one.rb', file_path: 'x.rb', content: 'x' }],
      ['move without previous_path', { action: 'move', file_path: 'x.rb' }],
      ['move onto itself', { action: 'move', previous_path: 'one.rb', file_path: 'one.rb' }],
      ['delete without file_path', { action: 'delete' }],
    ])('is 422 for invalid file actions: %s', async (_, action) => {
      const s = await f.snippet(two);
      await put(s.id, { files: [action] }).expect(422, { message: { error: 'Snippet actions have invalid data' } });
    });

    it.each([
      ['update of a missing file', [{ action: 'update', file_path: 'nope.rb', content: 'x' }]],
      ['create of an existing file', [{ action: 'create', file_path: 'one.rb', content: 'x' }]],
      ['deleting every file', [{ action: 'delete', file_path: 'one.rb' }, { action: 'delete', file_path: 'two.rb' }]],
      ['an eleventh file', Array.from({ length: 9 }, (_, i) => ({ action: 'create', file_path: `n${i}`, content: 'x' }))],
    ])('is 400 when the repository would refuse: %s', async (_, actions) => {
      const s = await f.snippet(two);
      await put(s.id, { files: actions }).expect(400, { message: { error: 'Repository Error updating the snippet' } });
      expect(await files(s.id)).toHaveLength(2);
    });
  });

  describe('as another member', () => {
    it('lets a maintainer edit anyone\'s snippet', async () => {
      const s = await f.snippet();
      await f.on(f.maintainer).put(f.path(s.id)).send({ title: 'By maintainer' }).expect(200);
    });

    it('is 403 for a reporter who is not the author and for a guest', async () => {
      const s = await f.snippet();
      await f.on(f.otherReporter).put(f.path(s.id)).send({ title: 'x' }).expect(403, { message: '403 Forbidden' });
      await f.on(f.guest).put(f.path(s.id)).send({ title: 'x' }).expect(403, { message: '403 Forbidden' });
      expect((await f.svc.deps.db('snippets').where({ id: s.id }).first()).title).toBe('A snippet');
    });
  });

  describe('as a non-member or anonymous', () => {
    it('is 404 Snippet Not Found when the snippet is hidden, 403 when visible, 401 anonymous', async () => {
      const priv = await f.snippet({ visibility: 'private' });
      const pub = await f.snippet();
      await f.on(f.outsider).put(f.path(priv.id)).send({ title: 'x' }).expect(404, { message: '404 Snippet Not Found' });
      await f.on(f.outsider).put(f.path(pub.id)).send({ title: 'x' }).expect(403, { message: '403 Forbidden' });
      await f.on(null).put(f.path(pub.id)).send({ title: 'x' }).expect(401, { message: '401 Unauthorized' });
    });
  });

  describe('with invalid parameters', () => {
    it.each([
      ['no attribute', {}, 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided'],
      ['a blank title', { title: ' ' }, 'title is empty'],
      ['blank content', { content: '' }, 'content is empty'],
      ['a null title', { title: null }, 'title is empty'],
      ['an unknown visibility', { visibility: 'x' }, 'visibility does not have a valid value'],
      ['files and content', { content: 'x', files: [{ action: 'create', file_path: 'a', content: 'a' }] }, 'files, content are mutually exclusive'],
      ['files and file_name', { file_name: 'x', files: [{ action: 'create', file_path: 'a', content: 'a' }] }, 'files, file_name are mutually exclusive'],
      ['an unknown file action', { files: [{ action: 'copy', file_path: 'a' }] }, 'files[0][action] does not have a valid value'],
      ['a file action missing', { files: [{ file_path: 'a' }] }, 'files[0][action] is missing'],
    ])('answers 400 for %s', async (_, body, error) => {
      const s = await f.snippet();
      await f.on(f.reporter).put(f.path(s.id)).send(body).expect(400, { error });
    });

    it('is 404 Snippet Not Found for an unknown id, and answers model errors', async () => {
      await f.on(f.maintainer).put(f.path(999999)).send({ title: 'x' }).expect(404, { message: '404 Snippet Not Found' });
      const s = await f.snippet();
      await f.on(f.reporter).put(f.path(s.id)).send({ title: 'x'.repeat(256) }).expect(400, { message: { error: 'Title is too long (maximum is 255 characters)' } });
    });
  });
});
