import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Actor } from '@anvil/auth';
import { exportPartsConsumer } from '../src/exports/part-consumer';
import { readArchive } from './support/archive';
import { startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let owner: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet();
  owner = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

const report = (jobId: string, projectId: number, part: string) => ({
  id: randomUUID(), type: `${part}.export.part.completed`, occurred_at: new Date().toISOString(), producer: part, version: 1,
  data: { export_id: jobId, project_id: projectId, part, files: [], counts: { issues: 1 } },
});

describe('the last part reported twice at once (a redelivery racing the first delivery)', () => {
  it('assembles the archive once: the job finishes, and its archive is kept whole with the recorded size', async () => {
    const project = await fleet.makeProject(owner);
    const { db, storage, log } = fleet.transfer.deps;
    const jobId = randomUUID();
    await db('project_exports').insert({ project_id: project.id, user_id: owner.id, job_id: jobId, job_status: 'started', parts_expected: ['identity', 'work-items'], parts_received: JSON.stringify({ identity: {} }) });
    await storage.put(`exports/${jobId}/tree/project.json`, Readable.from([Buffer.from('{"description":"x"}')]));
    await storage.put(`exports/${jobId}/tree/project/issues.ndjson`, Readable.from([Buffer.from(`${JSON.stringify({ iid: 1, title: 'a'.repeat(200_000) })}\n`)]));
    const consumer = exportPartsConsumer({ db, storage, log, allowLocalRequests: false, fullPath: async () => project.path_with_namespace });
    const first = report(jobId, project.id, 'work-items');
    await Promise.all([consumer.handler(first), consumer.handler({ ...first, id: randomUUID() }), consumer.handler(first)]);
    const row = await db('project_exports').where({ job_id: jobId }).first();
    expect(row).toMatchObject({ job_status: 'finished', archive_key: `exports/${jobId}.tar.gz` });
    const object = await storage.read(row.archive_key);
    expect(object).not.toBeNull();
    expect(object!.size).toBe(Number(row.archive_size));
    const chunks: Buffer[] = [];
    for await (const c of object!.body) chunks.push(c as Buffer);
    expect((await readArchive(Buffer.concat(chunks))).map((e) => e.name)).toEqual(['./VERSION', './tree/', './tree/project.json', './tree/project/', './tree/project/issues.ndjson']);
  });
});
