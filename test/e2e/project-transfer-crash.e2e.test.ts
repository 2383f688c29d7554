import { type Fleet, startFleet } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';
import { archives, download, exportEnded, importArchive, importEnded, partFile, schemaDb, seededProject, until, workItemCounts } from './support/transfer-data';

/**
 * Project export and import over RabbitMQ between separate processes, each consumer killed with
 * SIGKILL in the middle of its job and started again: the job is redelivered and finishes, with
 * exactly the source's records (no duplicates, iids kept) and no stray archives.
 */
describe('project transfer survives a consumer killed mid-job', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let source: { id: number };
  const COPIES = 4000;
  // ten batches of the import's 200 issue lines, so the kill lands between two of them
  const IMPORT_COPIES = 2000;

  beforeAll(async () => {
    fleet = await startFleet({
      services: ['identity', 'work-items', 'project-transfer'],
      env: { EXPORT_PARTS: 'identity,work-items', IMPORT_PARTS: 'work-items', PROJECT_EXPORT_LIMIT: '0', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0' },
    });
    owner = await userWithToken(fleet, 'crasher');
    source = await seededProject(fleet, owner.token, 'big', COPIES);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const jobOf = async (projectId: number) => {
    const db = schemaDb(fleet, 'project-transfer');
    try {
      return await db('project_exports').where({ project_id: projectId, user_id: owner.id }).first();
    } finally {
      await db.destroy();
    }
  };

  const expectWholeArchive = async (projectId: number) => {
    const { names, ndjson } = await download(fleet, owner.token, projectId);
    expect(new Set(names).size).toBe(names.length);
    expect(ndjson.issues).toHaveLength(COPIES + 1);
    expect(new Set(ndjson.issues.map((i) => i.iid)).size).toBe(COPIES + 1);
    expect(ndjson.issues.reduce((n, i) => n + i.notes.length, 0)).toBe(2 * (COPIES + 1));
    expect(ndjson.project_members.length).toBeGreaterThan(0);
  };

  it('work-items killed while writing its part: the export is redelivered, finishes, and the archive has every issue and note once', async () => {
    const before = await fetch(`${fleet.url}/api/v4/projects/${source.id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(before.status).toBe(202);
    const job = await until('the export job', () => jobOf(source.id), 10_000, 20);
    // labels and milestones are written first, issues last: kill between them
    await until('work-items to start its part', async () => partFile(fleet, job.job_id, 'tree/project/labels.ndjson'), 30_000, 5);
    expect(partFile(fleet, job.job_id, 'tree/project/issues.ndjson')).toBe(false);
    await fleet.crashAndRestart('work-items');
    const status = await exportEnded(fleet, owner.token, source.id);
    expect(status.export_status).toBe('finished');
    await expectWholeArchive(source.id);
    expect(archives(fleet)).toEqual([`${job.job_id}.tar.gz`]);
  }, 60_000);

  it('project-transfer killed while assembling the archive: the last part is redelivered and the archive is written whole', async () => {
    const res = await fetch(`${fleet.url}/api/v4/projects/${source.id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(res.status).toBe(202);
    const db = schemaDb(fleet, 'project-transfer');
    let job: any;
    try {
      job = await until('every part in', async () => {
        const row = await db('project_exports').where({ project_id: source.id, user_id: owner.id }).first();
        return row && row.job_status === 'started' && row.parts_expected.every((p: string) => p in row.parts_received) && row;
      }, 30_000, 2);
    } finally {
      await db.destroy();
    }
    await fleet.crashAndRestart('project-transfer');
    expect((await jobOf(source.id)).job_id).toBe(job.job_id);
    const status = await exportEnded(fleet, owner.token, source.id);
    expect(status.export_status).toBe('finished');
    await expectWholeArchive(source.id);
    expect(archives(fleet)).toEqual([`${job.job_id}.tar.gz`]);
  }, 60_000);

  it('work-items killed half-way through importing issues: the import resumes and ends with the archive\'s issues and notes once, iids kept', async () => {
    const small = await seededProject(fleet, owner.token, 'small', IMPORT_COPIES);
    await fetch(`${fleet.url}/api/v4/projects/${small.id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
    expect((await exportEnded(fleet, owner.token, small.id)).export_status).toBe('finished');
    const { buffer } = await download(fleet, owner.token, small.id);
    const created = await importArchive(fleet, owner.token, buffer, 'copy');
    const half = await until('work-items to have imported some issues', async () => {
      const c = await workItemCounts(fleet, created.id);
      return c.issues > 0 && c;
    }, 30_000, 5);
    expect(half.issues).toBeLessThan(IMPORT_COPIES + 1);
    await fleet.crashAndRestart('work-items');
    const status = await importEnded(fleet, owner.token, created.id);
    const n = IMPORT_COPIES + 1;
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [] });
    expect(await workItemCounts(fleet, created.id)).toEqual({ issues: n, iids: n, notes: 2 * n, maxIid: n });
    expect(status.relation_counts).toMatchObject({ issues: n, notes: 2 * n });
  }, 60_000);
});
