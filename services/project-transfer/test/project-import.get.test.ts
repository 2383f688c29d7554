import type { Actor } from '@anvil/auth';
import { makeArchive, validEntries } from './support/hostile';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let importer: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet();
  importer = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

async function status(projectId: number, user: Actor) {
  return fleet.transfer.as({ user, project: await fleet.scope(projectId, user) }).get(`/api/v4/projects/${projectId}/import`);
}

describe('GET /projects/:id/import', () => {
  it('answers none for a project that was not imported', async () => {
    const p = await fleet.makeProject(importer, { description: 'plain' });
    const res = await status(p.id, importer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: p.id, description: 'plain', name: p.name, name_with_namespace: `${importer.name} / ${p.name}`, path: p.path_with_namespace.split('/')[1],
      path_with_namespace: p.path_with_namespace, created_at: p.created_at, import_status: 'none', import_type: null, correlation_id: null,
      failed_relations: [], import_error: null, stats: null, relation_counts: {},
    });
  });

  it('reports the lines that failed as failed_relations, with the import finished and its counts', async () => {
    const entries = validEntries().map((e) => (e.name === './tree/project/issues.ndjson' ? { ...e, body: '{"iid":1,"title":"good","state":"opened","author_id":7}\n{"iid":"not-a-number","title":"bad"}\n' } : e));
    const res = await fleet.transfer.as({ user: importer }).post('/api/v4/projects/import').field('path', 'partly').attach('file', await makeArchive(entries), 'partly.tar.gz').expect(201);
    expect(res.body.correlation_id).toMatch(/^[0-9a-f-]{36}$/);
    const body = await eventually(async () => {
      const b = (await status(res.body.id, importer)).body;
      return b.import_status === 'finished' && b;
    });
    expect(body.relation_counts).toMatchObject({ issues: 1 });
    expect(body.failed_relations).toEqual([{
      id: expect.any(Number), created_at: expect.any(String), exception_class: expect.any(String), exception_message: null,
      source: 'work-items#import', relation_name: 'issues', line_number: 1,
    }]);
    expect(body.import_error).toBeNull();
  });
});
