import { createBus } from '@anvil/events';
import { type Fleet, testAmqpUrl } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';
import { download, exportEnded, importArchive, importEnded, schemaDb, seededProject, startSweepingFleet, tryGet, until, workItemCounts } from './support/transfer-data';

const STALL_SECONDS = 8;
const MAX_REDRIVES = 3;

/**
 * Jobs whose messages are lost (a queue deleted with what it held, as when deliveries are
 * dead-lettered) stall; the stuck-job sweep of two project-transfer replicas re-drives them through
 * the outbox, and fails those that still make no progress, as the status routes then show.
 */
describe('stalled export and import jobs are re-driven, then failed', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };
  let archive: Buffer;
  const IMPORT_COPIES = 2000;

  beforeAll(async () => {
    fleet = await startSweepingFleet(STALL_SECONDS, MAX_REDRIVES);
    owner = await userWithToken(fleet, 'stalled');
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const transferRows = async (table: string, where: Record<string, unknown>) => {
    const db = schemaDb(fleet, 'project-transfer');
    try {
      return await db(table).where(where).orderBy('id');
    } finally {
      await db.destroy();
    }
  };
  const outbox = async (type: string, key: string, value: string | number) => {
    const db = schemaDb(fleet, 'project-transfer');
    try {
      return await db('outbox').where({ type }).whereRaw(`data->>'${key}' = ?`, [String(value)]).orderBy('id');
    } finally {
      await db.destroy();
    }
  };

  /** Stops work-items as a crash does (its unacked deliveries go back to their queues). */
  const killWorkItems = async () => {
    const p = fleet.services['work-items'].process;
    if (p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };

  /** Loses every message waiting in one of work-items' queues: the queue is deleted (work-items declares it again when it starts). */
  const loseQueue = async (queue: string) => {
    const bus = createBus(testAmqpUrl());
    try {
      await bus.deleteQueue(`${fleet.queuePrefix}${queue}`);
    } finally {
      await bus.close();
    }
  };

  const post = (p: string) => fetch(`${fleet.url}/api/v4${p}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });

  it('an export whose work-items request was lost: the sweep asks work-items again and the export finishes whole', async () => {
    const source = await seededProject(fleet, owner.token, 'lost-part', 50);
    await killWorkItems();
    expect((await post(`/projects/${source.id}/export`)).status).toBe(202);
    const job = await until('identity\'s part', async () => {
      const [row] = await transferRows('project_exports', { project_id: source.id, user_id: owner.id });
      return row && 'identity' in row.parts_received && row;
    }, 20_000);
    await loseQueue('work-items.transfer-export');
    expect((await tryGet(fleet, owner.token, `/projects/${source.id}/export`)).export_status).toBe('started');
    await fleet.crashAndRestart('work-items');

    const status = await exportEnded(fleet, owner.token, source.id, 60_000);
    expect(status.export_status).toBe('finished');
    const { ndjson } = await download(fleet, owner.token, source.id);
    expect(ndjson.issues).toHaveLength(51);
    expect(new Set(ndjson.issues.map((i) => i.iid)).size).toBe(51);
    const [row] = await transferRows('project_exports', { project_id: source.id, user_id: owner.id });
    expect(row).toMatchObject({ job_id: job.job_id, job_status: 'finished' });
    expect(row.redrives).toBeGreaterThanOrEqual(1);
    const requests = await outbox('transfer.export.requested', 'export_id', job.job_id);
    expect(requests).toHaveLength(1 + row.redrives);
    // identity's part was in: each re-drive asks only work-items
    expect(requests.slice(1).map((r: { data: { parts?: string[] } }) => r.data.parts)).toEqual(Array(row.redrives).fill(['work-items']));
  }, 120_000);

  it('an import whose work-items delivery was lost half-way: the sweep re-drives it and it ends with every issue and note once, iids kept', async () => {
    const source = await seededProject(fleet, owner.token, 'half-source', IMPORT_COPIES);
    expect((await post(`/projects/${source.id}/export`)).status).toBe(202);
    expect((await exportEnded(fleet, owner.token, source.id, 60_000)).export_status).toBe('finished');
    archive = (await download(fleet, owner.token, source.id)).buffer;
    const created = await importArchive(fleet, owner.token, archive, 'half-copy');
    const half = await until('work-items to have imported some issues', async () => {
      const c = await workItemCounts(fleet, created.id);
      return c.issues > 0 && c;
    }, 30_000, 5);
    await killWorkItems();
    await loseQueue('work-items.transfer-import');
    await fleet.crashAndRestart('work-items');
    const n = IMPORT_COPIES + 1;
    expect(half.issues).toBeLessThan(n);
    const stalled = await workItemCounts(fleet, created.id);
    expect(stalled.issues).toBeLessThan(n);

    const status = await importEnded(fleet, owner.token, created.id, 90_000);
    expect(status).toMatchObject({ import_status: 'finished', import_error: null, failed_relations: [] });
    expect(await workItemCounts(fleet, created.id)).toEqual({ issues: n, iids: n, notes: 2 * n, maxIid: n });
    expect(status.relation_counts).toMatchObject({ issues: n, notes: 2 * n });
    const [row] = await transferRows('project_imports', { project_id: created.id });
    expect(row.redrives).toBeGreaterThanOrEqual(1);
    const handedOut = await outbox('transfer.import.unpacked', 'import_id', row.id);
    expect(handedOut.slice(1).map((e: { data: { parts?: string[] } }) => e.data.parts)).toEqual(Array(handedOut.length - 1).fill(['work-items']));
  }, 180_000);

  it('with work-items gone, an export is failed after the last re-drive and an import older than 24 h at once, as GET shows them', async () => {
    const project = await seededProject(fleet, owner.token, 'never', 0);
    await killWorkItems();
    expect((await post(`/projects/${project.id}/export`)).status).toBe(202);
    const copy = await importArchive(fleet, owner.token, archive, 'expired-copy');
    const [imported] = await until('identity\'s import part', async () => {
      const rows = await transferRows('project_imports', { project_id: copy.id });
      return rows[0]?.parts_received.includes('identity') && rows;
    }, 20_000);
    const db = schemaDb(fleet, 'project-transfer');
    try {
      await db('project_imports').where({ id: imported.id }).update({
        created_at: db.raw("now() - interval '24 hours 1 second'"), updated_at: db.raw('now() - make_interval(secs => ?)', [STALL_SECONDS + 1]),
      });
    } finally {
      await db.destroy();
    }
    const failedImport = await importEnded(fleet, owner.token, copy.id, 20_000);
    expect(failedImport).toMatchObject({ import_status: 'failed', import_error: 'Import timed out. Import took longer than 86400 seconds' });

    const failedExport = await exportEnded(fleet, owner.token, project.id, (MAX_REDRIVES + 2) * (STALL_SECONDS + 2) * 1000);
    expect(failedExport.export_status).toBe('failed');
    expect(failedExport._links).toBeUndefined();
    const [row] = await transferRows('project_exports', { project_id: project.id, user_id: owner.id });
    expect(row).toMatchObject({ job_status: 'failed', redrives: MAX_REDRIVES, error: `Export timed out. Export made no progress in ${STALL_SECONDS} seconds after ${MAX_REDRIVES} retries` });
    expect(await outbox('transfer.export.failed', 'export_id', row.job_id)).toHaveLength(1);
  }, 120_000);

  it('two replicas sweeping every second re-drive each stalled job once per stall', async () => {
    const requests = await outbox('transfer.export.requested', 'user_id', owner.id);
    const byJob = new Map<string, number[]>();
    for (const r of requests) byJob.set(r.data.export_id, [...(byJob.get(r.data.export_id) ?? []), new Date(r.occurred_at).getTime()]);
    const exports = await transferRows('project_exports', { user_id: owner.id });
    const redriven = exports.filter((e: { redrives: number }) => e.redrives > 0);
    expect(redriven.length).toBeGreaterThanOrEqual(2);
    for (const e of redriven) {
      const times = byJob.get(e.job_id) as number[];
      expect(times).toHaveLength(1 + e.redrives);
      const redrives = times.slice(1);
      for (let i = 1; i < redrives.length; i++) expect(redrives[i] - redrives[i - 1]).toBeGreaterThanOrEqual(STALL_SECONDS * 1000 - 500);
    }
  });
});
