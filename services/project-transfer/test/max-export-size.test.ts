import { randomBytes } from 'node:crypto';
import type { Actor } from '@anvil/auth';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

let fleet: TransferFleet;
let owner: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet({ MAX_EXPORT_SIZE_MB: '1', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0' });
  owner = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

async function exportOf(project: { id: number }) {
  const as = fleet.transfer.as({ user: owner, project: await fleet.scope(project.id, owner) });
  await as.post(`/api/v4/projects/${project.id}/export`).expect(202);
  const body = await eventually(async () => {
    const b = (await as.get(`/api/v4/projects/${project.id}/export`).expect(200)).body;
    return ['finished', 'failed'].includes(b.export_status) && b;
  }, 30_000);
  const download = await as.get(`/api/v4/projects/${project.id}/export/download`);
  const row = await fleet.transfer.deps.db('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
  return { body, download, row };
}

describe('max_export_size (MAX_EXPORT_SIZE_MB)', () => {
  it('exports a project whose archive is within the limit', async () => {
    const project = await fleet.makeProject(owner);
    await fleet.workItems.as({ user: owner, project: await fleet.scope(project.id, owner) }).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'small' }).expect(201);
    const { body, download } = await exportOf(project);
    expect(body.export_status).toBe('finished');
    expect(download.status).toBe(200);
  }, 60_000);

  it('fails an export whose archive is larger, keeps no archive, and answers failed with no _links and 404 on download', async () => {
    const project = await fleet.makeProject(owner);
    const issue = (await fleet.workItems.as({ user: owner, project: await fleet.scope(project.id, owner) }).post(`/api/v4/projects/${project.id}/issues`).send({ title: 'large' }).expect(201)).body;
    // 2 MB of incompressible text: the archive is larger than 1 MB after gzip
    await fleet.workItems.deps.db('issues').where({ id: issue.id }).update({ description: randomBytes(1536 * 1024).toString('base64') });
    const { body, download, row } = await exportOf(project);
    expect(body.export_status).toBe('failed');
    expect(body._links).toBeUndefined();
    expect(download.status).toBe(404);
    expect(download.body).toEqual({ message: '404 Not found or has expired' });
    expect(row).toMatchObject({ job_status: 'failed', error: 'The project size exceeds the export limit.', archive_key: null });
    expect(await fleet.transfer.deps.storage.head(`exports/${row.job_id}.tar.gz`)).toBeNull();
  }, 60_000);
});
