import { randomUUID } from 'node:crypto';
import { RepositoryEvents, type DefaultBranchChangedV1, type EventEnvelope } from '@anvil/events';
import { asOnProject, Identity, makeProject, makeUser, startIdentity } from './helpers';

let svc: Identity;
beforeAll(async () => {
  svc = await startIdentity();
});
afterAll(async () => svc?.stop());

function changed(data: DefaultBranchChangedV1, id = randomUUID()): EventEnvelope {
  return { id, type: RepositoryEvents.defaultBranchChanged, occurred_at: new Date().toISOString(), producer: 'pipelines', version: 1, data };
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

describe('pipelines.repository.default_branch_changed', () => {
  it("sets the project's default_branch, shown by GET /projects/:id, and applies a redelivery once", async () => {
    const owner = await makeUser(svc);
    const project = await makeProject(svc, owner);
    const event = changed({ project_id: project.id, default_branch: 'trunk', previous: null, actor_id: owner.id });
    await svc.deps.bus.publish(event);
    await until(async () => (await svc.deps.db('projects').where({ id: project.id }).first()).default_branch === 'trunk');
    const res = await (await asOnProject(svc, owner, project.id)).get(`/api/v4/projects/${project.id}`).expect(200);
    expect(res.body.default_branch).toBe('trunk');
    await svc.deps.db('projects').where({ id: project.id }).update({ default_branch: 'other' });
    await svc.deps.bus.publish(event);
    const marker = await makeProject(svc, owner);
    await svc.deps.bus.publish(changed({ project_id: marker.id, default_branch: 'marker', previous: null, actor_id: owner.id }));
    await until(async () => (await svc.deps.db('projects').where({ id: marker.id }).first()).default_branch === 'marker');
    expect((await svc.deps.db('projects').where({ id: project.id }).first()).default_branch).toBe('other');
    expect(await svc.deps.db('inbox').where({ consumer: 'identity.repository', event_id: event.id })).toHaveLength(1);
  });
});
