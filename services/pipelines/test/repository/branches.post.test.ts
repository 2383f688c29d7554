import { RepositoryEvents } from '@anvil/events';
import { repoWorld, RepoWorld } from './support';

describe('POST /projects/:id/repository/branches', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('creates a branch from a branch or a commit id (201 Branch) and publishes a push from 40 zeros', async () => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'a');
    const res = await w.on(project, 'developer').post(w.branches(project)).send({ branch: 'feature', ref: 'main' }).expect(201);
    expect(res.body).toMatchObject({ name: 'feature', default: false, protected: false, can_push: true, merged: false });
    const byId = await w.on(project, 'developer').post(w.branches(project)).send({ branch: 'pinned', ref: res.body.commit.id.slice(0, 10) }).expect(201);
    expect(byId.body.commit.id).toBe(res.body.commit.id);
    const pushed = await w.svc.deps.db('outbox').where({ type: RepositoryEvents.branchPushed }).whereRaw("data->>'ref' = 'feature' AND (data->>'project_id')::int = ?", [project.id]).first();
    expect(pushed.data).toEqual({ project_id: project.id, ref: 'feature', before: '0'.repeat(40), after: res.body.commit.id, user_id: w.users.developer.id });
  });

  it('commits an empty README.md on main first in an empty project', async () => {
    const project = w.project();
    const res = await w.on(project, 'owner').post(w.branches(project)).send({ branch: 'dev', ref: 'main' }).expect(201);
    expect(res.body.commit).toMatchObject({ title: 'Add README.md', parent_ids: [] });
    const file = await w.on(project, 'owner').get(`${w.files(project, 'README.md')}?ref=dev`).expect(200);
    expect(file.body).toMatchObject({ size: 0, blob_id: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391' });
    expect((await w.svc.deps.db('repositories').where({ project_id: project.id }).first()).default_branch).toBe('main');
  });

  it.each([
    [{ branch: 'main', ref: 'main' }, 'Branch already exists'],
    [{ branch: 'bad name', ref: 'main' }, 'Branch name is invalid'],
    [{ branch: 'new', ref: 'nope' }, "Failed to create branch 'new': invalid reference name 'nope'"],
    [{ branch: 'main/sub', ref: 'main' }, "Failed to create branch 'main/sub': Branch name conflicts with existing branch hierarchy."],
  ])('answers 400 for %j', async (body, message) => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'a');
    await w.on(project, 'owner').post(w.branches(project)).send(body).expect(400, { message });
  });

  it('answers 400 for missing parameters and 403 to a Reporter', async () => {
    const project = w.project();
    await w.on(project, 'owner').post(w.branches(project)).send({ branch: 'x' }).expect(400, { error: 'ref is missing' });
    await w.on(project, 'reporter').post(w.branches(project)).send({ branch: 'x', ref: 'main' }).expect(403, { message: '403 Forbidden' });
  });
});
