import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { TestService } from '@anvil/testing';
import type { PipelinesWorld } from '../support/pipelines';
import { readLines, request, startTransferPipelines } from './support';

let svc: TestService;
let world: PipelinesWorld;
let stop: () => Promise<void>;
let relationImportId = 7000;

beforeAll(async () => {
  ({ svc, world, stop } = await startTransferPipelines());
});
afterAll(async () => stop?.());

async function relationImport(projectId: number, lines: unknown[]) {
  const relation_import_id = relationImportId++;
  const prefix = `relation-imports/${randomUUID()}/`;
  await svc.deps.storage.put(`${prefix}tree/project/ci_pipelines.ndjson`, Readable.from([lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n']));
  const data = { relation_import_id, project_id: projectId, user_id: 42, relation: 'ci_pipelines', prefix, user_map: {} };
  return request(svc, 'transfer.relation-import.unpacked', data, 'pipelines.relation-import.part.completed', 'relation_import_id', relation_import_id);
}

describe('transfer.relation-import.unpacked (ci_pipelines) → pipelines part', () => {
  it('imports the pipelines the project lacks with their iids and skips the iids it already has', async () => {
    const source = world.project();
    await world.commit(source);
    const a = await world.pipeline(source);
    const b = await world.pipeline(source);
    const export_id = randomUUID();
    const prefix = `exports/${export_id}/`;
    await request(svc, 'transfer.export.requested', { export_id, project_id: source.id, user_id: 1, description: null, prefix }, 'pipelines.export.part.completed', 'export_id', export_id);
    const exported = await readLines(svc, `${prefix}tree/project/ci_pipelines.ndjson`);

    const target = world.project();
    await world.commit(target);
    const mine = await world.pipeline(target);
    expect(mine.iid).toBe(a.iid);
    const done = await relationImport(target.id, [...exported, '{not json']);
    expect(done).toMatchObject({ project_id: target.id, part: 'pipelines', counts: { ci_pipelines: 1, stages: 3, builds: 4 }, skipped: 1 });
    expect(done.failures).toEqual([{ relation_name: 'ci_pipelines', line_number: 2, exception_class: 'SyntaxError', exception_message: expect.any(String) }]);
    const rows = await svc.deps.db('pipelines').where({ project_id: target.id }).orderBy('iid');
    expect(rows.map((p) => [p.id === mine.id, p.iid, p.sha])).toEqual([[true, a.iid, mine.sha], [false, b.iid, b.sha]]);

    const again = await relationImport(target.id, exported);
    expect(again).toMatchObject({ counts: { ci_pipelines: 0, stages: 0, builds: 0 }, skipped: 2, failures: [] });
    expect(await svc.deps.db('pipelines').where({ project_id: target.id }).count('* as n').first()).toEqual({ n: '2' });
  });
});
