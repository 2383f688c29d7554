import { randomUUID } from 'node:crypto';
import { IdentityEvents } from '@anvil/events';
import { repoWorld, RepoWorld } from './support';

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

describe('identity.project.deleted', () => {
  let w: RepoWorld;
  beforeAll(async () => {
    w = await repoWorld();
  });
  afterAll(() => w?.svc.stop());

  it("removes the project's branches, commits and repository row, and no other project's", async () => {
    const gone = w.project();
    const kept = w.project();
    await w.seed(gone, 'same.txt', 'shared bytes');
    await w.seed(kept, 'same.txt', 'shared bytes');
    const data = { id: gone.id, name: 'x', path: 'x', path_with_namespace: gone.path_with_namespace, namespace_id: 1 };
    await w.svc.deps.bus.publish({ id: randomUUID(), type: IdentityEvents.projectDeleted, occurred_at: new Date().toISOString(), producer: 'identity', version: 1, data });
    const db = w.svc.deps.db;
    await until(async () => (await db('repositories').where({ project_id: gone.id })).length === 0);
    expect(await db('repository_branches').where({ project_id: gone.id })).toEqual([]);
    expect(await db('repository_commits').where({ project_id: gone.id })).toEqual([]);
    await w.on(kept, 'reporter').get(`${w.files(kept, 'same.txt')}?ref=main`).expect(200);
    await w.on(gone, 'reporter').get(`${w.files(gone, 'same.txt')}?ref=main`).expect(404, { message: '404 Commit Not Found' });
  });
});
