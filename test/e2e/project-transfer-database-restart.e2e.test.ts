import { type Fleet, type PrivateServer, privatePostgres, startFleet } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';
import { download, exportEnded, importArchive, importEnded, partFile, schemaDb, seededProject, tryGet, until, workItemCounts } from './support/transfer-data';

/**
 * Project export and import on a Postgres cluster of the test's own, restarted in the middle of a
 * job: the job finishes whole (or fails with a status a user can read), the status routes answer
 * afterwards, and nothing is half imported.
 */
describe('project transfer survives a Postgres restart', () => {
  let pg: PrivateServer;
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let source: { id: number };
  const COPIES = 2000;
  const IMPORT_COPIES = 300;

  beforeAll(async () => {
    pg = await privatePostgres();
    fleet = await startFleet({
      services: ['identity', 'work-items', 'project-transfer'],
      databaseUrl: pg.url,
      env: { EXPORT_PARTS: 'identity,work-items', IMPORT_PARTS: 'work-items', PROJECT_EXPORT_LIMIT: '0', PROJECT_DOWNLOAD_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0' },
    });
    owner = await userWithToken(fleet, 'restarter');
    source = await seededProject(fleet, owner.token, 'restarted', COPIES, pg.url);
  }, 150_000);
  afterAll(async () => {
    await fleet?.stop();
    await pg?.stop();
  }, 60_000);

  it('restarted while work-items writes its export part: the export finishes with every issue and note once', async () => {
    const res = await fetch(`${fleet.url}/api/v4/projects/${source.id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(res.status).toBe(202);
    const db = schemaDb(fleet, 'project-transfer', pg.url);
    let job: any;
    try {
      job = await until('the export job', async () => db('project_exports').where({ project_id: source.id }).first(), 10_000, 20);
    } finally {
      await db.destroy();
    }
    await until('work-items to start its part', async () => partFile(fleet, job.job_id, 'tree/project/labels.ndjson'), 30_000, 5);
    expect(partFile(fleet, job.job_id, 'tree/project/issues.ndjson')).toBe(false);
    await pg.restart();
    const status = await exportEnded(fleet, owner.token, source.id);
    expect(status.export_status).toBe('finished');
    const { ndjson } = await download(fleet, owner.token, source.id);
    expect(ndjson.issues).toHaveLength(COPIES + 1);
    expect(new Set(ndjson.issues.map((i) => i.iid)).size).toBe(COPIES + 1);
    expect(ndjson.issues.reduce((n, i) => n + i.notes.length, 0)).toBe(2 * (COPIES + 1));
  }, 60_000);

  it('restarted while work-items imports issues: the import finishes with the archive\'s issues and notes once, and the status routes answer', async () => {
    const small = await seededProject(fleet, owner.token, 'small', IMPORT_COPIES, pg.url);
    await fetch(`${fleet.url}/api/v4/projects/${small.id}/export`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
    expect((await exportEnded(fleet, owner.token, small.id)).export_status).toBe('finished');
    const { buffer } = await download(fleet, owner.token, small.id);
    const created = await importArchive(fleet, owner.token, buffer, 'copy');
    await until('work-items to have imported some issues', async () => (await workItemCounts(fleet, created.id, pg.url)).issues > 0, 30_000, 5);
    await pg.restart();
    const status = await importEnded(fleet, owner.token, created.id);
    const n = IMPORT_COPIES + 1;
    expect(status).toMatchObject({ import_status: 'finished', failed_relations: [], import_error: null });
    expect(await workItemCounts(fleet, created.id, pg.url)).toEqual({ issues: n, iids: n, notes: 2 * n, maxIid: n });
    expect(status.relation_counts).toMatchObject({ issues: n, notes: 2 * n });
    for (const p of [`/projects/${created.id}/import`, `/projects/${source.id}/export`, `/projects/${created.id}/issues?per_page=1`]) {
      const r = await fetch(`${fleet.url}/api/v4${p}`, { headers: { 'PRIVATE-TOKEN': owner.token } });
      expect([p, r.status]).toEqual([p, 200]);
    }
    expect(await tryGet(fleet, owner.token, `/projects/${created.id}/import`)).not.toBeNull();
  }, 60_000);
});
