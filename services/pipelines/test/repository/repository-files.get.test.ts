import { createHash } from 'node:crypto';
import { repoWorld, RepoWorld } from './support';

describe('GET /projects/:id/repository/files/:file_path', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  const head = async (project: { id: number }, name = 'main') => (await w.svc.deps.db('repository_branches').where({ project_id: project.id, name }).first()).commit_sha as string;

  describe('as a Reporter of a private project', () => {
    it("answers GitLab's blob_data and content, keys in order, with X-Gitlab headers", async () => {
      const project = w.project();
      await w.seed(project, '.gitlab-ci.yml', 'test:\n  script: echo\n');
      const touched = await head(project);
      await w.seed(project, 'other.txt', 'x');
      const res = await w.on(project, 'reporter').get(`${w.files(project, '.gitlab-ci.yml')}?ref=main`).expect(200);
      const content = Buffer.from('test:\n  script: echo\n');
      const expected = {
        file_name: '.gitlab-ci.yml', file_path: '.gitlab-ci.yml', size: content.length, encoding: 'base64',
        content_sha256: createHash('sha256').update(content).digest('hex'), ref: 'main',
        blob_id: createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex'),
        commit_id: await head(project), last_commit_id: touched, execute_filemode: false, content: content.toString('base64'),
      };
      expect(res.body).toEqual(expected);
      expect(Object.keys(res.body)).toEqual(Object.keys(expected));
      expect(res.headers).toMatchObject({
        'x-gitlab-file-name': '.gitlab-ci.yml', 'x-gitlab-size': String(content.length), 'x-gitlab-encoding': 'base64',
        'x-gitlab-blob-id': expected.blob_id, 'x-gitlab-commit-id': expected.commit_id, 'x-gitlab-last-commit-id': touched, 'x-gitlab-execute-filemode': 'false',
      });
    });

    it('reads a nested file at a commit id and at a short commit id', async () => {
      const project = w.project();
      await w.seed(project, 'a/b/c.txt', 'deep');
      const sha = await head(project);
      await w.on(project, 'owner').put(w.files(project, 'a/b/c.txt')).send({ branch: 'main', content: 'deeper', commit_message: 'm' }).expect(200);
      const old = await w.on(project, 'reporter').get(`${w.files(project, 'a/b/c.txt')}?ref=${sha}`).expect(200);
      expect(Buffer.from(old.body.content, 'base64').toString()).toBe('deep');
      const short = await w.on(project, 'reporter').get(`${w.files(project, 'a/b/c.txt')}?ref=${sha.slice(0, 8)}`).expect(200);
      expect(short.body.commit_id).toBe(sha);
      const now = await w.on(project, 'reporter').get(`${w.files(project, 'a/b/c.txt')}?ref=main`).expect(200);
      expect(Buffer.from(now.body.content, 'base64').toString()).toBe('deeper');
    });

    it('answers 404 Commit Not Found for an unknown ref and 404 File Not Found for a missing path or a directory', async () => {
      const project = w.project();
      await w.seed(project, 'dir/x.txt', 'x');
      await w.on(project, 'reporter').get(`${w.files(project, 'dir/x.txt')}?ref=nope`).expect(404, { message: '404 Commit Not Found' });
      await w.on(project, 'reporter').get(`${w.files(project, 'dir/y.txt')}?ref=main`).expect(404, { message: '404 File Not Found' });
      await w.on(project, 'reporter').get(`${w.files(project, 'dir')}?ref=main`).expect(404, { message: '404 File Not Found' });
      const empty = w.project();
      await w.on(empty, 'reporter').get(`${w.files(empty, 'x')}?ref=main`).expect(404, { message: '404 Commit Not Found' });
    });
  });

  describe('parameters', () => {
    it('answers 400 for a missing or empty ref and a traversing path', async () => {
      const project = w.project();
      await w.on(project, 'reporter').get(w.files(project, 'a.txt')).expect(400, { error: 'ref is missing' });
      await w.on(project, 'reporter').get(`${w.files(project, 'a.txt')}?ref=`).expect(400, { error: 'ref is empty' });
      await w.on(project, 'reporter').get(`${w.files(project, '../a.txt')}?ref=main`).expect(400, { error: 'file_path should be a valid file path' });
    });
  });

  describe('authorization', () => {
    it('refuses a Guest of a private project (403) and lets anyone read a public one', async () => {
      const secret = w.project('private');
      await w.seed(secret, 'a.txt', 'a');
      await w.on(secret, 'guest').get(`${w.files(secret, 'a.txt')}?ref=main`).expect(403, { message: '403 Forbidden' });
      await w.on(secret, 'anonymous').get(`${w.files(secret, 'a.txt')}?ref=main`).expect(404, { message: '404 Project Not Found' });
      await w.on(secret, 'admin').get(`${w.files(secret, 'a.txt')}?ref=main`).expect(200);
      const open = w.project('public');
      await w.seed(open, 'a.txt', 'a');
      await w.on(open, 'anonymous').get(`${w.files(open, 'a.txt')}?ref=main`).expect(200);
      const internal = w.project('internal');
      await w.seed(internal, 'a.txt', 'a');
      await w.on(internal, 'outsider').get(`${w.files(internal, 'a.txt')}?ref=main`).expect(200);
      await w.on(internal, 'anonymous').get(`${w.files(internal, 'a.txt')}?ref=main`).expect(404);
    });
  });
});

describe('HEAD /projects/:id/repository/files/:file_path', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('answers 200 with the metadata headers and no body; 404 for a missing file', async () => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'abc');
    const res = await w.on(project, 'reporter').head(`${w.files(project, 'a.txt')}?ref=main`).expect(200);
    expect(res.headers).toMatchObject({ 'x-gitlab-file-path': 'a.txt', 'x-gitlab-size': '3', 'x-gitlab-ref': 'main' });
    expect(res.text ?? '').toBe('');
    await w.on(project, 'reporter').head(`${w.files(project, 'b.txt')}?ref=main`).expect(404);
    await w.on(project, 'guest').head(`${w.files(project, 'a.txt')}?ref=main`).expect(403);
  });
});

describe('GET /projects/:id/repository/files/:file_path/raw', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('sends the blob bytes with no-cache and disposition headers, from the default branch without ref', async () => {
    const project = w.project();
    await w.seed(project, 'docs/read me.txt', 'plain text\n', 'trunk');
    const res = await w.on(project, 'reporter').get(`${w.files(project, 'docs/read me.txt')}/raw`).expect(200);
    expect(res.text).toBe('plain text\n');
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8', 'cache-control': 'max-age=0, private, must-revalidate, no-store, no-cache', pragma: 'no-cache',
      expires: 'Fri, 01 Jan 1990 00:00:00 GMT', 'content-disposition': `inline; filename="read me.txt"; filename*=UTF-8''read%20me.txt`, 'x-gitlab-file-name': 'read me.txt',
    });
  });

  it('sends binary content as application/octet-stream, byte for byte', async () => {
    const project = w.project();
    const bytes = Buffer.from([0, 255, 1, 2, 10]);
    await w.seed(project, 'blob.bin', bytes.toString('base64'), 'main', { encoding: 'base64' });
    const res = await w.on(project, 'reporter').get(`${w.files(project, 'blob.bin')}/raw?ref=main`).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
  });

  it('answers 404 Commit Not Found in an empty project and 403 to a Guest', async () => {
    const project = w.project();
    await w.on(project, 'reporter').get(`${w.files(project, 'a')}/raw`).expect(404, { message: '404 Commit Not Found' });
    await w.seed(project, 'a', 'a');
    await w.on(project, 'guest').get(`${w.files(project, 'a')}/raw`).expect(403);
  });
});
