import { randomUUID } from 'node:crypto';
import type { Actor } from '@anvil/auth';
import { exportPartsConsumer } from '../src/exports/part-consumer';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let owner: Actor;
let project: { id: number; path_with_namespace: string; name: string; description: string | null; created_at: string };

beforeAll(async () => {
  fleet = await startTransferFleet();
  owner = await fleet.makeUser();
  project = await fleet.makeProject(owner, { description: 'status source' });
});
afterAll(async () => fleet?.stop());

async function status(user: Actor) {
  return fleet.transfer.as({ user, project: await fleet.scope(project.id, user) }).get(`/api/v4/projects/${project.id}/export`);
}

function identityFields() {
  return {
    id: project.id, description: 'status source', name: project.name, name_with_namespace: `${owner.name} / ${project.name}`,
    path: project.path_with_namespace.split('/')[1], path_with_namespace: project.path_with_namespace, created_at: project.created_at,
  };
}

describe('GET /projects/:id/export', () => {
  it('answers none before any export, without _links', async () => {
    const res = await status(owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...identityFields(), export_status: 'none' });
  });

  it('answers queued right after the request, then finished with _links', async () => {
    await fleet.transfer.as({ user: owner, project: await fleet.scope(project.id, owner) }).post(`/api/v4/projects/${project.id}/export`).expect(202);
    const first = (await status(owner)).body.export_status;
    expect(['queued', 'started', 'finished']).toContain(first);
    const done = await eventually(async () => {
      const body = (await status(owner)).body;
      return body.export_status === 'finished' && body;
    });
    expect(done).toEqual({
      ...identityFields(), export_status: 'finished',
      _links: { api_url: `http://127.0.0.1:8080/api/v4/projects/${project.id}/export/download`, web_url: `http://127.0.0.1:8080/${project.path_with_namespace}/download_export` },
    });
  });

  it('ignores part reports redelivered after the job finished: the archive stays', async () => {
    const row = await fleet.transfer.deps.db('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
    expect(row.job_status).toBe('finished');
    const consumer = exportPartsConsumer({ db: fleet.transfer.deps.db, storage: fleet.transfer.deps.storage, log: fleet.transfer.deps.log, allowLocalRequests: false, fullPath: async () => 'x/y' });
    const report = { export_id: row.job_id, project_id: project.id, part: 'work-items', files: [], counts: { issues: 99 } };
    await consumer.handler({ id: randomUUID(), type: 'work-items.export.part.completed', occurred_at: new Date().toISOString(), producer: 'work-items', version: 1, data: report });
    const after = await fleet.transfer.deps.db('project_exports').where({ id: row.id }).first();
    expect(after).toMatchObject({ job_status: 'finished', archive_key: row.archive_key, counts: row.counts });
    expect(await fleet.transfer.deps.storage.head(row.archive_key)).not.toBeNull();
  });

  it('is per user: another maintainer sees none', async () => {
    const other = await fleet.makeUser();
    await fleet.addMember(project.id, other, 40);
    expect((await status(other)).body.export_status).toBe('none');
  });

  it('answers failed when a part fails, with no archive', async () => {
    const user = await fleet.makeUser();
    await fleet.addMember(project.id, user, 40);
    const jobId = randomUUID();
    await fleet.transfer.deps.db('project_exports').insert({ project_id: project.id, user_id: user.id, job_id: jobId, job_status: 'started', parts_expected: ['identity', 'work-items'] });
    const consumer = exportPartsConsumer({ db: fleet.transfer.deps.db, storage: fleet.transfer.deps.storage, log: fleet.transfer.deps.log, allowLocalRequests: false, fullPath: async () => 'x/y' });
    await consumer.handler({ id: randomUUID(), type: 'work-items.export.part.failed', occurred_at: new Date().toISOString(), producer: 'work-items', version: 1, data: { export_id: jobId, project_id: project.id, part: 'work-items', error: 'disk full' } });
    expect((await status(user)).body.export_status).toBe('failed');
    const row = await fleet.transfer.deps.db('project_exports').where({ job_id: jobId }).first();
    expect(row.error).toBe('work-items: disk full');
  });

  it('answers regeneration_in_progress while a new job runs and an archive exists', async () => {
    const user = await fleet.makeUser();
    await fleet.addMember(project.id, user, 40);
    await fleet.transfer.deps.db('project_exports').insert({ project_id: project.id, user_id: user.id, job_id: randomUUID(), job_status: 'queued', archive_key: 'exports/old.tar.gz' });
    expect((await status(user)).body.export_status).toBe('regeneration_in_progress');
  });

  it('answers 403 to a developer', async () => {
    const dev = await fleet.makeUser();
    await fleet.addMember(project.id, dev, 30);
    const res = await status(dev);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });
});
