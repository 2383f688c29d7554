import { RepositoryEvents } from '@anvil/events';
import { repoWorld, RepoWorld } from './support';

describe('DELETE /projects/:id/repository/branches/:branch', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it('deletes a branch (204) and publishes a push to 40 zeros', async () => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'a');
    const made = await w.on(project, 'developer').post(w.branches(project)).send({ branch: 'topic/1', ref: 'main' }).expect(201);
    await w.on(project, 'developer').delete(w.branches(project, 'topic/1')).expect(204);
    expect(await w.svc.deps.db('repository_branches').where({ project_id: project.id, name: 'topic/1' })).toEqual([]);
    const gone = await w.svc.deps.db('outbox').where({ type: RepositoryEvents.branchPushed }).whereRaw("data->>'after' = ? AND (data->>'project_id')::int = ?", ['0'.repeat(40), project.id]).first();
    expect(gone.data).toMatchObject({ ref: 'topic/1', before: made.body.commit.id });
  });

  it('answers 404 Branch Not Found, 400 for the default branch, 412 when modified since, 403 to a Reporter', async () => {
    const project = w.project();
    await w.seed(project, 'a.txt', 'a');
    await w.on(project, 'owner').post(w.branches(project)).send({ branch: 'old', ref: 'main' }).expect(201);
    await w.on(project, 'owner').delete(w.branches(project, 'nope')).expect(404, { message: '404 Branch Not Found' });
    await w.on(project, 'owner').delete(w.branches(project, 'main')).expect(400, { message: 'The default branch of a project cannot be deleted.' });
    await w.on(project, 'owner').delete(w.branches(project, 'old')).set('If-Unmodified-Since', 'Thu, 01 Jan 2015 00:00:00 GMT').expect(412, { message: '412 Precondition Failed' });
    await w.on(project, 'reporter').delete(w.branches(project, 'old')).expect(403, { message: '403 Forbidden' });
    await w.on(project, 'owner').delete(w.branches(project, 'old')).expect(204);
  });
});
