import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Actor } from '@anvil/auth';
import { transferImportConsumer as importConsumer } from '@anvil/work-items';
import { unpackArchive } from '../src/imports/safe-unpack';
import { startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');

let fleet: TransferFleet;
let importer: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet();
  importer = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

describe('a redelivered transfer.import.unpacked', () => {
  it('imports nothing twice: issues, notes, labels and milestones keep their counts', async () => {
    const project = await fleet.makeProject(importer);
    const prefix = `imports/redelivery-${project.id}/`;
    await unpackArchive(fleet.workItems.deps.storage, Readable.from([readFileSync(path.join(FIXTURES, 'light.tar.gz'))]), prefix);
    const event = {
      id: randomUUID(), type: 'transfer.import.unpacked', occurred_at: new Date().toISOString(), producer: 'project-transfer', version: 1,
      data: { import_id: 999, project_id: project.id, user_id: importer.id, prefix, user_map: {} },
    };
    const consumer = importConsumer(fleet.workItems.deps);
    const db = fleet.workItems.deps.db;
    const snapshot = async () => ({
      issues: await db('issues').where({ project_id: project.id }).count({ n: '*' }).first(),
      notes: await db('notes').where({ project_id: project.id }).count({ n: '*' }).first(),
      labels: await db('labels').where({ project_id: project.id }).count({ n: '*' }).first(),
      milestones: await db('milestones').where({ project_id: project.id }).count({ n: '*' }).first(),
    });
    await consumer.handler(event);
    const first = await snapshot();
    expect(first).toEqual({ issues: { n: '1' }, notes: { n: '1' }, labels: { n: '1' }, milestones: { n: '1' } });
    await consumer.handler({ ...event, id: randomUUID() });
    await consumer.handler(event);
    expect(await snapshot()).toEqual(first);
    const reports = await db('outbox').where({ type: 'work-items.import.part.completed' }).whereRaw("(data->>'project_id')::int = ?", [project.id]).orderBy('id');
    // each report counts what the project holds, so a resumed import reports the whole of it
    expect(reports.map((r: { data: { counts: Record<string, number> } }) => r.data.counts.issues)).toEqual([1, 1, 1]);
  });
});
