import { SnippetFixture, snippetFixture, SnippetJson } from '../support/snippets';

describe('GET project snippets', () => {
  let f: SnippetFixture;
  let pub: SnippetJson;
  let internal: SnippetJson;
  let priv: SnippetJson;
  beforeAll(async () => {
    f = await snippetFixture();
    pub = await f.snippet({ title: 'pub', visibility: 'public' });
    internal = await f.snippet({ title: 'int', visibility: 'internal' });
    priv = await f.snippet({ title: 'priv', visibility: 'private', files: [{ file_path: 'x.rb', content: 'X' }, { file_path: 'lib/y z.rb', content: 'Y' }] });
  });
  afterAll(() => f?.svc.stop());

  describe('GET /projects/:id/snippets', () => {
    const ids = async (who: Parameters<SnippetFixture['on']>[0]) => (await f.on(who).get(f.path()).expect(200)).body.map((s: SnippetJson) => s.id);

    it('is 401 anonymous, even on a public project', async () => {
      await f.on(null).get(f.path()).expect(401, { message: '401 Unauthorized' });
    });

    it('shows members every snippet, newest first, with pagination headers', async () => {
      const res = await f.on(f.guest).get(`${f.path()}?per_page=2`).expect(200);
      expect(res.body.map((s: SnippetJson) => s.id)).toEqual([priv.id, internal.id]);
      expect(res.headers).toMatchObject({ 'x-total': '3', 'x-total-pages': '2', 'x-per-page': '2', 'x-page': '1', 'x-next-page': '2' });
      expect(res.body[0]).toEqual(priv);
      expect(await ids(f.maintainer)).toEqual([priv.id, internal.id, pub.id]);
    });

    it('shows a signed-in non-member the public and internal snippets', async () => {
      expect(await ids(f.outsider)).toEqual([internal.id, pub.id]);
    });

    it('shows an administrator every snippet', async () => {
      expect(await ids(f.admin)).toEqual([priv.id, internal.id, pub.id]);
    });
  });

  describe('GET /projects/:id/snippets/:snippet_id', () => {
    it('serves a public snippet to anyone, anonymous included', async () => {
      expect((await f.on(null).get(f.path(pub.id)).expect(200)).body).toEqual(pub);
      expect((await f.on(f.outsider).get(f.path(pub.id)).expect(200)).body).toEqual(pub);
    });

    it('serves an internal snippet to signed-in users only', async () => {
      await f.on(f.outsider).get(f.path(internal.id)).expect(200);
      await f.on(null).get(f.path(internal.id)).expect(404, { message: '404 Not found' });
    });

    it('serves a private snippet to members only', async () => {
      expect((await f.on(f.guest).get(f.path(priv.id)).expect(200)).body).toEqual(priv);
      await f.on(f.outsider).get(f.path(priv.id)).expect(404, { message: '404 Not found' });
      await f.on(null).get(f.path(priv.id)).expect(404, { message: '404 Not found' });
    });

    it('is 404 Not found for an unknown id and 400 for a non-integer one', async () => {
      await f.on(f.maintainer).get(f.path(999999)).expect(404, { message: '404 Not found' });
      await f.on(f.maintainer).get(f.path('abc')).expect(400, { error: 'snippet_id is invalid' });
    });
  });

  describe('GET /projects/:id/snippets/:snippet_id/raw', () => {
    it('sends the first file as a text/plain attachment, to anonymous callers too', async () => {
      const res = await f.on(null).get(f.path(`${pub.id}/raw`)).expect(200);
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.headers['content-disposition']).toBe('attachment');
      expect(res.text).toBe('puts 1');
      expect((await f.on(f.guest).get(f.path(`${priv.id}/raw`)).expect(200)).text).toBe('X');
    });

    it('is 404 Snippet Not Found when hidden or unknown', async () => {
      await f.on(f.outsider).get(f.path(`${priv.id}/raw`)).expect(404, { message: '404 Snippet Not Found' });
      await f.on(null).get(f.path(`${internal.id}/raw`)).expect(404, { message: '404 Snippet Not Found' });
      await f.on(f.maintainer).get(f.path('999999/raw')).expect(404, { message: '404 Snippet Not Found' });
    });
  });

  describe('GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', () => {
    it('sends one file inline, named, by its URL-encoded path', async () => {
      const res = await f.on(f.guest).get(f.path(`${priv.id}/files/main/${encodeURIComponent('lib/y z.rb')}/raw`)).expect(200);
      expect(res.text).toBe('Y');
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.headers['content-disposition']).toBe(`inline; filename="y z.rb"; filename*=UTF-8''y%20z.rb`);
    });

    it('is 404 for an unknown ref, file or snippet, and for a hidden snippet', async () => {
      await f.on(f.guest).get(f.path(`${priv.id}/files/nope/x.rb/raw`)).expect(404, { message: '404 Reference Not Found' });
      await f.on(f.guest).get(f.path(`${priv.id}/files/main/nope.rb/raw`)).expect(404, { message: '404 File Not Found' });
      await f.on(f.guest).get(f.path('999999/files/main/x.rb/raw')).expect(404, { message: '404 Snippet Not Found' });
      await f.on(f.outsider).get(f.path(`${priv.id}/files/main/x.rb/raw`)).expect(404, { message: '404 Snippet Not Found' });
    });
  });
});

describe('GET /projects/:id/snippets/:snippet_id/user_agent_detail', () => {
  let f: SnippetFixture;
  beforeAll(async () => {
    f = await snippetFixture();
  });
  afterAll(() => f?.svc.stop());

  it('shows an administrator the creating request\'s user agent and address (the gateway\'s hop)', async () => {
    const res = await f.on(f.reporter).post(f.path()).set({ 'User-Agent': 'python-gitlab/3.12.0', 'X-Forwarded-For': '10.9.9.9, 192.0.2.7' })
      .send({ title: 'UA', visibility: 'private', file_name: 'a', content: 'a' }).expect(201);
    expect((await f.on(f.admin).get(f.path(`${res.body.id}/user_agent_detail`)).expect(200)).body)
      .toEqual({ user_agent: 'python-gitlab/3.12.0', ip_address: '192.0.2.7', akismet_submitted: false });
  });

  it('is 401 anonymous, 403 for a maintainer, 404 for an unknown snippet or one without a detail', async () => {
    const s = await f.snippet();
    await f.on(null).get(f.path(`${s.id}/user_agent_detail`)).expect(401, { message: '401 Unauthorized' });
    await f.on(f.maintainer).get(f.path(`${s.id}/user_agent_detail`)).expect(403, { message: '403 Forbidden' });
    await f.on(f.admin).get(f.path('999999/user_agent_detail')).expect(404, { message: '404 Not found' });
    await f.svc.deps.db('snippets').where({ id: s.id }).update({ user_agent: null });
    await f.on(f.admin).get(f.path(`${s.id}/user_agent_detail`)).expect(404, { message: '404 UserAgentDetail Not Found' });
  });
});
