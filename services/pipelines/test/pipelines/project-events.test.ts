import { randomUUID } from 'node:crypto';
import { IdentityEvents } from '@anvil/events';
import type { TestService } from '@anvil/testing';
import { PipelinesWorld, startPipelines } from '../support/pipelines';

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

describe('identity.project.* consumed by pipelines', () => {
  let svc: TestService;
  let world: PipelinesWorld;

  beforeAll(async () => {
    ({ svc, world } = await startPipelines());
  });
  afterAll(() => svc?.stop());

  const publish = (type: string, data: Record<string, unknown>) =>
    svc.deps.bus.publish({ id: randomUUID(), type, occurred_at: new Date().toISOString(), producer: 'identity', version: 1, data });

  it("deletes a deleted project's pipelines, jobs and variables, and no other project's", async () => {
    const gone = world.project();
    const kept = world.project();
    for (const p of [gone, kept]) await world.commit(p);
    const a = await world.pipeline(gone, 'main', { variables: [{ key: 'K', value: 'v' }] });
    const b = await world.pipeline(kept);
    await publish(IdentityEvents.projectDeleted, { id: gone.id, name: 'x', path: 'x', path_with_namespace: gone.path_with_namespace, namespace_id: 1 });
    const db = svc.deps.db;
    await until(async () => (await db('pipelines').where({ project_id: gone.id })).length === 0);
    expect(await db('jobs').where({ pipeline_id: a.id })).toEqual([]);
    expect(await db('pipeline_variables').where({ pipeline_id: a.id })).toEqual([]);
    expect(await db('pipelines').where({ id: b.id })).toHaveLength(1);
  });

  it("keeps a renamed project's recorded path current", async () => {
    const p = world.project();
    await world.commit(p);
    await world.pipeline(p);
    await publish(IdentityEvents.projectUpdated, { id: p.id, name: 'n', path: 'n', path_with_namespace: 'grp/renamed', namespace_id: 1, visibility: 'internal' });
    await until(async () => (await svc.deps.db('ci_projects').where({ id: p.id }).first()).path_with_namespace === 'grp/renamed');
    expect((await svc.deps.db('ci_projects').where({ id: p.id }).first()).visibility).toBe('internal');
  });
});
