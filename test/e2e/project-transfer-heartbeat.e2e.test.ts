import type { Fleet } from '@anvil/testing';
import { userWithToken } from './support/fleet-api';
import { download, exportEnded, schemaDb, seededProject, startSweepingFleet, until } from './support/transfer-data';

const STALL_SECONDS = 4;
const MAX_REDRIVES = 2;
/** Longer than a part without heartbeats survives: re-driven after each stall, failed after the last. */
const SLOW_PART_MS = ((MAX_REDRIVES + 1) * STALL_SECONDS + 3) * 1000;

/**
 * Heartbeats between separate processes over RabbitMQ: work-items beats while its export part runs
 * (held up here by a lock on its `issues` table: a part that really takes that long), so the sweep of
 * two project-transfer replicas leaves the job alone however long the part takes; when work-items is
 * killed mid-part its heartbeats stop and the sweep re-drives the job as before.
 */
describe('part heartbeats keep a slow job alive, and only a dead part is re-driven', () => {
  let fleet: Fleet;
  let owner: { id: number; token: string };

  beforeAll(async () => {
    fleet = await startSweepingFleet(STALL_SECONDS, MAX_REDRIVES, { TRANSFER_HEARTBEAT_SECONDS: '1' });
    owner = await userWithToken(fleet, 'beating');
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const inSchema = async <T>(service: string, fn: (db: ReturnType<typeof schemaDb>) => Promise<T>): Promise<T> => {
    const db = schemaDb(fleet, service);
    try {
      return await fn(db);
    } finally {
      await db.destroy();
    }
  };
  const exportRow = async (projectId: number) => inSchema('project-transfer', async (db) => db('project_exports').where({ project_id: projectId, user_id: owner.id }).first());
  const requests = async (jobId: string) => inSchema('project-transfer', async (db) => db('outbox').where({ type: 'transfer.export.requested' }).whereRaw(`data->>'export_id' = ?`, [jobId]).orderBy('id'));
  const beats = async (jobId: string) => inSchema('work-items', async (db) => db('outbox').where({ type: 'work-items.transfer.part.progressed' }).whereRaw(`data->>'job_id' = ?`, [jobId]).orderBy('id'));

  /** Holds work-items' `issues` table locked until `release()`: its export part waits on the database meanwhile. */
  const lockIssues = async () => {
    const db = schemaDb(fleet, 'work-items');
    const trx = await db.transaction();
    await trx.raw('LOCK TABLE issues IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await trx.rollback().catch(() => undefined);
      await db.destroy();
    };
  };
  const post = (p: string) => fetch(`${fleet.url}/api/v4${p}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token } });
  const startedExport = async (projectId: number) => {
    expect((await post(`/projects/${projectId}/export`)).status).toBe(202);
    const job = await until('identity\'s part and a work-items heartbeat', async () => {
      const row = await exportRow(projectId);
      return row && 'identity' in row.parts_received && (await beats(row.job_id)).length > 0 && row;
    }, 20_000);
    return job as { id: number; job_id: string };
  };

  it('an export part that runs longer than (re-drives + 1) × the stall time is not re-driven and finishes whole', async () => {
    const source = await seededProject(fleet, owner.token, 'slow-part', 20);
    const release = await lockIssues();
    let job: { job_id: string };
    try {
      job = await startedExport(source.id);
      const end = Date.now() + SLOW_PART_MS;
      while (Date.now() < end) {
        expect(await exportRow(source.id)).toMatchObject({ job_status: 'started', redrives: 0 });
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(Object.keys((await exportRow(source.id)).parts_received)).toEqual(['identity']);
    } finally {
      await release();
    }
    const status = await exportEnded(fleet, owner.token, source.id, 30_000);
    expect(status.export_status).toBe('finished');
    expect(await exportRow(source.id)).toMatchObject({ job_id: job.job_id, job_status: 'finished', redrives: 0 });
    expect(await requests(job.job_id)).toHaveLength(1);
    expect((await beats(job.job_id)).length).toBeGreaterThanOrEqual(SLOW_PART_MS / 1000 - 3);
    const { ndjson } = await download(fleet, owner.token, source.id);
    expect(ndjson.issues).toHaveLength(21);
  }, 120_000);

  it('work-items killed mid-part: its heartbeats stop, the sweep re-drives the job to work-items, and it finishes whole', async () => {
    const source = await seededProject(fleet, owner.token, 'dead-part', 20);
    const release = await lockIssues();
    let job: { job_id: string };
    try {
      job = await startedExport(source.id);
      const p = fleet.services['work-items'].process;
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGKILL');
      await exited;
    } finally {
      await release();
    }
    const lastBeat = (await beats(job.job_id)).at(-1);
    const redriven = await until('a re-drive', async () => {
      const row = await exportRow(source.id);
      return row.redrives >= 1 && row;
    }, (STALL_SECONDS + 5) * 1000);
    expect(redriven.job_status).toBe('started');
    const [, redrive] = await requests(job.job_id);
    expect(redrive.data.parts).toEqual(['work-items']);
    // not before the stall time had passed since the last heartbeat
    expect(new Date(redrive.occurred_at).getTime() - new Date(lastBeat.occurred_at).getTime()).toBeGreaterThanOrEqual(STALL_SECONDS * 1000 - 1000);

    await fleet.crashAndRestart('work-items');
    const status = await exportEnded(fleet, owner.token, source.id, 60_000);
    expect(status.export_status).toBe('finished');
    const { ndjson } = await download(fleet, owner.token, source.id);
    expect(ndjson.issues).toHaveLength(21);
    expect(new Set(ndjson.issues.map((i) => i.iid)).size).toBe(21);
    const row = await exportRow(source.id);
    expect(row).toMatchObject({ job_status: 'finished' });
    expect(row.redrives).toBeGreaterThanOrEqual(1);
    expect(row.redrives).toBeLessThanOrEqual(MAX_REDRIVES);
  }, 120_000);
});
