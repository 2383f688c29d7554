import { repoWorld, RepoWorld } from './support';

describe('GET /projects/:id/repository/branches', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  async function withBranches(names: string[]) {
    const project = w.project();
    await w.seed(project, 'README.md', 'x');
    for (const name of names) await w.on(project, 'owner').post(w.branches(project)).send({ branch: name, ref: 'main' }).expect(201);
    return project;
  }

  it('lists branches by name with the Branch entity (keys in order) and pagination headers', async () => {
    const project = await withBranches(['feature', 'Zeta']);
    await w.seed(project, 'more.txt', 'y');
    const res = await w.on(project, 'developer').get(w.branches(project)).expect(200);
    expect(res.body.map((b: { name: string }) => b.name)).toEqual(['Zeta', 'feature', 'main']);
    expect(res.headers).toMatchObject({ 'x-total': '3', 'x-page': '1', 'x-per-page': '20' });
    const main = res.body[2];
    expect(Object.keys(main)).toEqual(['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url']);
    expect(main).toMatchObject({ name: 'main', merged: false, protected: true, developers_can_push: false, developers_can_merge: false, can_push: false, default: true, web_url: `http://127.0.0.1:8080/${project.path_with_namespace}/-/tree/main` });
    expect(res.body[1]).toMatchObject({ name: 'feature', merged: true, protected: false, can_push: true, default: false });
    expect(Object.keys(main.commit)).toEqual(['id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date', 'committer_name', 'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url']);
    expect(main.commit).toMatchObject({ short_id: main.commit.id.slice(0, 8), title: 'Add more.txt', message: 'Add more.txt', parent_ids: [res.body[1].commit.id], trailers: {}, extended_trailers: {} });
    expect(main.commit.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/);
    expect(main.commit.web_url).toBe(`http://127.0.0.1:8080/${project.path_with_namespace}/-/commit/${main.commit.id}`);
    const paged = await w.on(project, 'developer').get(`${w.branches(project)}?per_page=2&page=2`).expect(200);
    expect(paged.body.map((b: { name: string }) => b.name)).toEqual(['main']);
  });

  it('filters by search (^prefix, suffix$, exact match first), regex and sorts by update', async () => {
    const project = await withBranches(['feat', 'feature/a', 'my-feat', 'release']);
    const names = async (q: string) => (await w.on(project, 'reporter').get(`${w.branches(project)}?${q}`).expect(200)).body.map((b: { name: string }) => b.name);
    expect(await names('search=FEAT')).toEqual(['feat', 'feature/a', 'my-feat']);
    expect(await names('search=%5Efeat')).toEqual(['feat', 'feature/a']);
    expect(await names('search=feat%24')).toEqual(['feat', 'my-feat']);
    expect(await names('search=f*a')).toEqual(['feat', 'feature/a', 'my-feat']);
    expect(await names('regex=%5E(main%7Crelease)%24')).toEqual(['main', 'release']);
    // commit times are Git's whole seconds: the newer commit must fall in a later second
    await new Promise((r) => setTimeout(r, 1100));
    await w.on(project, 'owner').post(w.files(project, 'r.txt')).send({ branch: 'release', content: 'r', commit_message: 'm' }).expect(201);
    expect((await names('sort=updated_desc'))[0]).toBe('release');
    expect(await names('page_token=feature%2Fa')).toEqual(['main', 'my-feat', 'release']);
  });

  it('answers 400 for an invalid sort or regex, [] for an empty project, 403 to a Guest of a private project', async () => {
    const project = await withBranches([]);
    await w.on(project, 'reporter').get(`${w.branches(project)}?sort=size`).expect(400, { error: 'sort does not have a valid value' });
    await w.on(project, 'reporter').get(`${w.branches(project)}?regex=(`).expect(400, { error: 'regex is invalid' });
    const empty = w.project();
    await w.on(empty, 'reporter').get(w.branches(empty)).expect(200, []);
    await w.on(project, 'guest').get(w.branches(project)).expect(403, { message: '403 Forbidden' });
    const open = w.project('public');
    await w.on(open, 'anonymous').get(w.branches(open)).expect(200, []);
  });
});

describe('GET /projects/:id/repository/branches/:branch', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('answers one branch (URL-encoded name), 404 Branch Not Found when missing; HEAD answers 204 / 404', async () => {
    const project = w.project('public');
    await w.seed(project, 'a.txt', 'a', 'feature/x');
    const res = await w.on(project, 'anonymous').get(w.branches(project, 'feature/x')).expect(200);
    expect(res.body).toMatchObject({ name: 'feature/x', default: true, can_push: false, merged: false });
    await w.on(project, 'anonymous').get(w.branches(project, 'nope')).expect(404, { message: '404 Branch Not Found' });
    await w.on(project, 'anonymous').head(w.branches(project, 'feature/x')).expect(204);
    await w.on(project, 'anonymous').head(w.branches(project, 'nope')).expect(404);
    expect((await w.on(project, 'maintainer').get(w.branches(project, 'feature/x')).expect(200)).body.can_push).toBe(true);
  });
});
