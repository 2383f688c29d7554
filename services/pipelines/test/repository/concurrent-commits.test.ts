import { rollbackAll, migrate } from '@anvil/db';
import { migrations } from '../../migrations';
import { repoWorld, RepoWorld } from './support';

describe('commits of one project made at the same time', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('are serialised into one linear history: every file is there, every commit has the previous as parent', async () => {
    const project = w.project();
    await w.seed(project, 'README.md', 'x');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => w.on(project, 'owner').post(w.files(project, `f${i}.txt`)).send({ branch: 'main', content: String(i), commit_message: `Add ${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const commits = await w.svc.deps.db('repository_commits').where({ project_id: project.id });
    expect(commits).toHaveLength(13);
    const bySha = new Map(commits.map((c) => [c.sha, c]));
    let sha = (await w.svc.deps.db('repository_branches').where({ project_id: project.id, name: 'main' }).first()).commit_sha;
    let depth = 0;
    while (bySha.get(sha)?.parent_shas.length) {
      sha = bySha.get(sha)?.parent_shas[0];
      depth++;
    }
    expect(depth).toBe(12);
    for (let i = 0; i < 12; i++) await w.on(project, 'reporter').get(`${w.files(project, `f${i}.txt`)}?ref=main`).expect(200);
  });
});

describe('20261126000100_create_repository', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('rolls back and migrates again', async () => {
    const { db, schema } = w.svc.deps;
    await rollbackAll(db, schema, migrations);
    expect(await db.schema.hasTable('repository_commits')).toBe(false);
    await migrate(db, schema, migrations);
    expect(await db.schema.hasTable('repository_commits')).toBe(true);
  });
});
