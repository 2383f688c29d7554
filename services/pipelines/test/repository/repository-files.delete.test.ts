import { repoWorld, RepoWorld } from './support';

describe('DELETE /projects/:id/repository/files/:file_path', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  const headCommit = async (project: { id: number }) => {
    const branch = await w.svc.deps.db('repository_branches').where({ project_id: project.id, name: 'main' }).first();
    return w.svc.deps.db('repository_commits').where({ project_id: project.id, sha: branch.commit_sha }).first();
  };

  it('commits the removal (204, empty body); an emptied directory disappears, the last file leaves the empty tree', async () => {
    const project = w.project();
    await w.seed(project, 'a/b/c.txt', 'c');
    await w.seed(project, 'top.txt', 't');
    const res = await w.on(project, 'maintainer').delete(w.files(project, 'a/b/c.txt')).send({ branch: 'main', commit_message: 'Remove c' }).expect(204);
    expect(res.text).toBe('');
    const commit = await headCommit(project);
    expect(commit).toMatchObject({ message: 'Remove c', changed_paths: ['a/b/c.txt'] });
    expect((await w.svc.deps.db('repository_trees').where({ sha: commit.tree_sha }).first()).entries.map((e: { name: string }) => e.name)).toEqual(['top.txt']);
    await w.on(project, 'reporter').get(`${w.files(project, 'a/b/c.txt')}?ref=main`).expect(404, { message: '404 File Not Found' });
    await w.on(project, 'maintainer').delete(w.files(project, 'top.txt')).send({ branch: 'main', commit_message: 'Remove all' }).expect(204);
    expect((await headCommit(project)).tree_sha).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it("answers 400 for a file that doesn't exist and for a missing branch", async () => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'a');
    await w.on(project, 'owner').delete(w.files(project, 'b.txt')).send({ branch: 'main', commit_message: 'm' }).expect(400, { message: "A file with this name doesn't exist" });
    await w.on(project, 'owner').delete(w.files(project, 'a.txt')).send({ branch: 'nope', commit_message: 'm' }).expect(400, { message: 'You can only create or edit files when you are on a branch' });
  });

  it('answers 400 branch is missing, and 403 to a Reporter', async () => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'a');
    await w.on(project, 'owner').delete(w.files(project, 'a.txt')).send({ commit_message: 'm' }).expect(400, { error: 'branch is missing' });
    await w.on(project, 'reporter').delete(w.files(project, 'a.txt')).send({ branch: 'main', commit_message: 'm' }).expect(403, { message: '403 Forbidden' });
  });
});
