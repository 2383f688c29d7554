import { TEST_BASE_URL } from '@anvil/testing';
import { SnippetFixture, snippetFixture, userBasic } from '../support/snippets';
import { AccessLevel } from '../support/world';

describe('POST /projects/:id/snippets', () => {
  let f: SnippetFixture;
  beforeAll(async () => {
    f = await snippetFixture();
  });
  afterAll(() => f?.svc.stop());

  const count = async () => Number((await f.svc.deps.db('snippets').count({ n: '*' }))[0].n);

  describe('as a reporter', () => {
    it('creates a one-file snippet from content and file_name (201, stored, event written)', async () => {
      const res = await f.on(f.reporter).post(f.path()).send({ title: 'Hello', description: 'd', visibility: 'internal', file_name: 'hello.rb', content: 'puts "hi"' }).expect(201);
      const id = res.body.id;
      const web = `${TEST_BASE_URL}/${f.project.path_with_namespace}/-/snippets/${id}`;
      expect(res.body).toEqual({
        id: expect.any(Number), title: 'Hello', description: 'd', visibility: 'internal', author: userBasic(f.reporter),
        created_at: expect.stringMatching(/Z$/), updated_at: res.body.created_at, project_id: f.project.id, web_url: web, raw_url: `${web}/raw`,
        file_name: 'hello.rb', files: [{ path: 'hello.rb', raw_url: `${web}/raw/main/hello.rb` }], imported: false, imported_from: 'none',
      });
      const row = await f.svc.deps.db('snippets').where({ id }).first();
      expect(row).toMatchObject({ project_id: f.project.id, author_id: f.reporter.id, title: 'Hello', file_name: 'hello.rb', content: 'puts "hi"', visibility_level: 10 });
      expect(await f.svc.deps.db('snippet_files').where({ snippet_id: id }).select('path', 'content', 'position')).toEqual([{ path: 'hello.rb', content: 'puts "hi"', position: 0 }]);
      const ev = await f.svc.deps.db('outbox').where({ type: 'work-items.snippet.created' }).whereRaw("data->>'id' = ?", [String(id)]).first();
      expect(ev.data).toMatchObject({ id, project_id: f.project.id, author_id: f.reporter.id, visibility: 'internal', files: ['hello.rb'], actor_id: f.reporter.id });
    });

    it('creates a multi-file snippet from files[] (file_name is the first file)', async () => {
      const files = [{ file_path: 'b.py', content: 'print(1)' }, { file_path: 'dir/a.txt', content: 'x' }];
      const res = await f.on(f.reporter).post(f.path()).send({ title: 'Two', visibility: 'private', files }).expect(201);
      expect(res.body.file_name).toBe('b.py');
      expect(res.body.files.map((x: { path: string }) => x.path)).toEqual(['b.py', 'dir/a.txt']);
      expect(await f.svc.deps.db('snippets').where({ id: res.body.id }).first()).toMatchObject({ file_name: 'b.py', content: 'print(1)', visibility_level: 0 });
    });

    it('names a file GitLab-style when file_name is blank', async () => {
      const res = await f.on(f.reporter).post(f.path()).send({ title: 'Blank', visibility: 'public', file_name: '', content: 'x' }).expect(201);
      expect(res.body.file_name).toBe('snippetfile1.txt');
    });
  });

  describe('as an administrator who is not a member', () => {
    it('creates (administrators count as Owner)', async () => {
      const res = await f.on(f.admin).post(f.path()).send({ title: 'A', visibility: 'public', file_name: 'a', content: 'a' }).expect(201);
      expect(res.body.author.id).toBe(f.admin.id);
    });
  });

  describe('without the right', () => {
    it('is 403 for a guest and for a non-member, 401 anonymous; nothing is stored', async () => {
      const before = await count();
      const body = { title: 'A', visibility: 'public', file_name: 'a', content: 'a' };
      await f.on(f.guest).post(f.path()).send(body).expect(403, { message: '403 Forbidden' });
      await f.on(f.outsider).post(f.path()).send(body).expect(403, { message: '403 Forbidden' });
      await f.on(null).post(f.path()).send(body).expect(401, { message: '401 Unauthorized' });
      expect(await count()).toBe(before);
    });

    it('validates parameters before authentication, as Grape does', async () => {
      await f.on(null).post(f.path()).send({ visibility: 'public', file_name: 'a', content: 'a' }).expect(400, { error: 'title is missing' });
    });
  });

  describe('on an archived project', () => {
    it('is 403 for a reporter', async () => {
      const archived = await f.world.project('old', { visibility: 'public' });
      await f.world.member(archived, f.reporter, AccessLevel.REPORTER);
      await f.world.archive(archived);
      await f.world.onProject(archived, f.reporter).post(`/api/v4/projects/${archived.id}/snippets`)
        .send({ title: 'A', visibility: 'public', file_name: 'a', content: 'a' }).expect(403, { message: '403 Forbidden' });
    });
  });

  describe('with invalid parameters', () => {
    const post = (body: Record<string, unknown>) => f.on(f.reporter).post(f.path()).send(body);
    const ok = { title: 'A', visibility: 'public' };

    it.each([
      ['title missing', { visibility: 'public', file_name: 'a', content: 'a' }, 'title is missing'],
      ['title blank', { ...ok, title: '  ', file_name: 'a', content: 'a' }, 'title is empty'],
      ['visibility missing', { title: 'A', file_name: 'a', content: 'a' }, 'visibility is missing'],
      ['visibility unknown', { ...ok, visibility: 'secret', file_name: 'a', content: 'a' }, 'visibility does not have a valid value'],
      ['neither files nor content', ok, 'files, content are missing, exactly one parameter must be provided'],
      ['both files and content', { ...ok, file_name: 'a', content: 'a', files: [{ file_path: 'b', content: 'b' }] }, 'files, content are mutually exclusive'],
      ['content without file_name', { ...ok, content: 'a' }, 'file_name is missing'],
      ['content blank', { ...ok, file_name: 'a', content: ' ' }, 'content is empty'],
      ['a file without content', { ...ok, files: [{ file_path: 'b' }] }, 'files[0][content] is missing'],
      ['a file with a blank path', { ...ok, files: [{ file_path: 'a', content: 'a' }, { file_path: '', content: 'b' }] }, 'files[1][file_path] is empty'],
      ['a file path that climbs', { ...ok, files: [{ file_path: '../etc/passwd', content: 'b' }] }, 'files[0][file_path] should be a valid file path'],
    ])('answers 400 when %s', async (_, body, error) => {
      const before = await count();
      await post(body).expect(400, { error });
      expect(await count()).toBe(before);
    });

    it('answers the model errors as {"message":{"error":…}}', async () => {
      const long = 'x'.repeat(256);
      await post({ ...ok, title: long, file_name: 'a', content: 'a' }).expect(400, { message: { error: 'Title is too long (maximum is 255 characters)' } });
      await post({ ...ok, title: long, file_name: long, content: 'a' })
        .expect(400, { message: { error: 'Title is too long (maximum is 255 characters) and File name is too long (maximum is 255 characters)' } });
    });

    it('answers an empty files[] as the model does', async () => {
      await post({ ...ok, files: [] }).expect(400, { message: { error: "Content can't be blank" } });
    });

    it('refuses more than ten files and a path given twice', async () => {
      const before = await count();
      const eleven = Array.from({ length: 11 }, (_, i) => ({ file_path: `f${i}`, content: 'x' }));
      await post({ ...ok, files: eleven }).expect(400, { message: { error: 'Repository Error creating the snippet' } });
      await post({ ...ok, files: [{ file_path: 'a', content: '1' }, { file_path: 'a', content: '2' }] }).expect(400, { message: { error: 'Repository Error creating the snippet' } });
      expect(await count()).toBe(before);
      await post({ ...ok, files: eleven.slice(1) }).expect(201);
    });
  });
});
