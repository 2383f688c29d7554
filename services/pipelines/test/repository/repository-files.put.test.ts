import { repoWorld, RepoWorld } from './support';

describe('PUT /projects/:id/repository/files/:file_path', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  const head = async (project: { id: number }, name = 'main') => (await w.svc.deps.db('repository_branches').where({ project_id: project.id, name }).first()).commit_sha as string;

  it('commits the new content (200 {file_path, branch}) and keeps unchanged trees shared', async () => {
    const project = w.project();
    await w.seed(project, 'keep/a.txt', 'a');
    await w.seed(project, 'ci.yml', 'v1');
    const before = await w.svc.deps.db('repository_commits').where({ project_id: project.id, sha: await head(project) }).first();
    await w.on(project, 'maintainer').put(w.files(project, 'ci.yml')).send({ branch: 'main', content: 'v2', commit_message: 'Update' }).expect(200, { file_path: 'ci.yml', branch: 'main' });
    const after = await w.svc.deps.db('repository_commits').where({ project_id: project.id, sha: await head(project) }).first();
    expect(after.parent_shas).toEqual([before.sha]);
    const entries = async (sha: string) => (await w.svc.deps.db('repository_trees').where({ sha }).first()).entries as { name: string; sha: string }[];
    expect((await entries(after.tree_sha)).find((e) => e.name === 'keep')).toEqual((await entries(before.tree_sha)).find((e) => e.name === 'keep'));
    const res = await w.on(project, 'reporter').get(`${w.files(project, 'ci.yml')}?ref=main`).expect(200);
    expect(Buffer.from(res.body.content, 'base64').toString()).toBe('v2');
    expect(res.body.last_commit_id).toBe(after.sha);
  });

  it('accepts the current last_commit_id and refuses a stale one (400)', async () => {
    const project = w.project();
    await w.seed(project, 'f.txt', '1');
    const first = await head(project);
    await w.seed(project, 'g.txt', 'unrelated');
    await w.on(project, 'owner').put(w.files(project, 'f.txt')).send({ branch: 'main', content: '2', commit_message: 'm', last_commit_id: first }).expect(200);
    await w.on(project, 'owner').put(w.files(project, 'f.txt')).send({ branch: 'main', content: '3', commit_message: 'm', last_commit_id: first })
      .expect(400, { message: 'You are attempting to update a file that has changed since you started editing it.' });
  });

  it("answers 400 for a file that doesn't exist", async () => {
    const project = w.project();
    await w.seed(project, 'f.txt', '1');
    await w.on(project, 'owner').put(w.files(project, 'g.txt')).send({ branch: 'main', content: '2', commit_message: 'm' }).expect(400, { message: "A file with this name doesn't exist" });
  });

  it('refuses a Developer on the protected default branch (400) and a Reporter outright (403)', async () => {
    const project = w.project();
    await w.seed(project, 'f.txt', '1');
    await w.on(project, 'developer').put(w.files(project, 'f.txt')).send({ branch: 'main', content: '2', commit_message: 'm' }).expect(400, { message: 'You are not allowed to push into this branch' });
    await w.on(project, 'reporter').put(w.files(project, 'f.txt')).send({ branch: 'main', content: '2', commit_message: 'm' }).expect(403, { message: '403 Forbidden' });
    await w.on(project, 'developer').put(w.files(project, 'f.txt')).send({ branch: 'dev', start_branch: 'main', content: '2', commit_message: 'm' }).expect(200);
    await w.on(project, 'developer').put(w.files(project, 'f.txt')).send({ branch: 'dev', content: '3', commit_message: 'm' }).expect(200);
  });

  it('answers 400 commit_message is missing', async () => {
    const project = w.project();
    await w.on(project, 'owner').put(w.files(project, 'f.txt')).send({ branch: 'main', content: '2' }).expect(400, { error: 'commit_message is missing' });
  });
});
