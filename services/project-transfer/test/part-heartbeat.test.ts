import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@anvil/auth';
import { emit, transferPartProgressed, type TransferPartProgressedV1 } from '@anvil/events';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const LIGHT = readFileSync(path.join(FIXTURES, 'light.tar.gz'));
const STALL_SECONDS = 3;
const MAX_REDRIVES = 1;
/** Longer than a job without heartbeats survives: re-driven after one stall, failed after the next. */
const SLOW_PART_MS = ((MAX_REDRIVES + 1) * STALL_SECONDS + 3) * 1000;

let fleet: TransferFleet;
let owner: Actor;

beforeAll(async () => {
  fleet = await startTransferFleet(
    { TRANSFER_SWEEP_INTERVAL_SECONDS: '1', TRANSFER_STALL_SECONDS: String(STALL_SECONDS), TRANSFER_MAX_REDRIVES: String(MAX_REDRIVES), PROJECT_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0' },
    { TRANSFER_HEARTBEAT_SECONDS: '1' },
  );
  owner = await fleet.makeUser();
});
afterAll(async () => fleet?.stop());

const db = () => fleet.transfer.deps.db;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function as(user: Actor, projectId: number) {
  return fleet.transfer.as({ user, project: await fleet.scope(projectId, user) });
}

/** work-items' heartbeats for a job, as its outbox holds them. */
async function heartbeats(kind: string, jobId: string | number) {
  return fleet.workItems.deps.db('outbox').where({ type: 'work-items.transfer.part.progressed' })
    .whereRaw(`data->>'kind' = ? AND data->>'job_id' = ?`, [kind, String(jobId)]);
}

/**
 * Runs `fn` while work-items' `issues` table is locked: work-items' export or import part waits on the
 * database, really working and far slower than the stall time, until the lock is released.
 */
async function whileIssuesLocked<T>(fn: () => Promise<T>): Promise<T> {
  const holder = await fleet.workItems.deps.db.transaction();
  try {
    await holder.raw('LOCK TABLE issues IN ACCESS EXCLUSIVE MODE');
    return await fn();
  } finally {
    await holder.rollback();
  }
}

/** Watches a running job for `ms`: the sweep never re-drives it nor fails it. */
async function staysUntouched(table: string, where: Record<string, unknown>, statusColumn: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const row = await db()(table).where(where).first();
    expect(row.redrives).toBe(0);
    expect(row[statusColumn]).not.toBe('failed');
    await sleep(500);
  }
}

describe('a part that runs longer than the stall time while its service beats', () => {
  it('an export is not re-driven and finishes with redrives 0', async () => {
    const project = await fleet.makeProject(owner);
    const api = await as(owner, project.id);
    const row = await whileIssuesLocked(async () => {
      await api.post(`/api/v4/projects/${project.id}/export`).expect(202);
      const job = await eventually(async () => {
        const r = await db()('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
        return r && 'identity' in r.parts_received && r;
      });
      await staysUntouched('project_exports', { id: job.id }, 'job_status', SLOW_PART_MS);
      expect(await db()('project_exports').where({ id: job.id }).first()).toMatchObject({ job_status: 'started', redrives: 0 });
      expect(Object.keys((await db()('project_exports').where({ id: job.id }).first()).parts_received)).toEqual(['identity']);
      return job;
    });
    const status = await eventually(async () => {
      const body = (await api.get(`/api/v4/projects/${project.id}/export`).expect(200)).body;
      return body.export_status === 'finished' && body;
    });
    expect(status._links).toBeDefined();
    expect(await db()('project_exports').where({ id: row.id }).first()).toMatchObject({ job_status: 'finished', redrives: 0 });
    expect(await db()('outbox').where({ type: 'transfer.export.requested' }).whereRaw(`data->>'export_id' = ?`, [row.job_id])).toHaveLength(1);
    expect((await heartbeats('export', row.job_id)).length).toBeGreaterThanOrEqual(SLOW_PART_MS / 1000 - 2);
    const identityBeats = await fleet.identity.deps.db('outbox').where({ type: 'identity.transfer.part.progressed' }).whereRaw(`data->>'job_id' = ?`, [row.job_id]);
    expect(identityBeats[0]?.data).toMatchObject({ kind: 'export', service: 'identity', part: 'identity' });
  }, 60_000);

  it('an import is not re-driven and finishes whole with redrives 0', async () => {
    const { projectId, row } = await whileIssuesLocked(async () => {
      const res = await fleet.transfer.as({ user: owner }).post('/api/v4/projects/import').field('path', 'slow-import').attach('file', LIGHT, 'light.tar.gz').expect(201);
      const job = await eventually(async () => {
        const r = await db()('project_imports').where({ project_id: res.body.id }).first();
        return r && r.parts_received.includes('identity') && r;
      });
      await staysUntouched('project_imports', { id: job.id }, 'status', SLOW_PART_MS);
      expect(await db()('project_imports').where({ id: job.id }).first()).toMatchObject({ status: 'started', redrives: 0, parts_received: ['identity'] });
      return { projectId: res.body.id as number, row: job };
    });
    const api = await as(owner, projectId);
    const status = await eventually(async () => {
      const body = (await api.get(`/api/v4/projects/${projectId}/import`).expect(200)).body;
      return body.import_status !== 'started' && body;
    });
    expect(status).toMatchObject({ import_status: 'finished', import_error: null, failed_relations: [] });
    expect(status.relation_counts.issues).toBeGreaterThan(0);
    expect(await db()('project_imports').where({ id: row.id }).first()).toMatchObject({ status: 'finished', redrives: 0 });
    expect(await db()('outbox').where({ type: 'transfer.import.unpacked' }).whereRaw(`(data->>'import_id')::int = ?`, [row.id])).toHaveLength(1);
    expect((await heartbeats('import', row.id)).length).toBeGreaterThanOrEqual(SLOW_PART_MS / 1000 - 2);
    const identityBeats = await fleet.identity.deps.db('outbox').where({ type: 'identity.transfer.part.progressed' }).whereRaw(`data->>'job_id' = ?`, [String(row.id)]);
    expect(identityBeats[0]?.data).toMatchObject({ kind: 'import', service: 'identity', part: 'identity' });
  }, 60_000);

  it('a relation import is not re-driven and finishes with redrives 0', async () => {
    const project = await fleet.makeProject(owner);
    const id = await whileIssuesLocked(async () => {
      const posted = await fleet.transfer.as({ user: owner }).post('/api/v4/projects/import-relation')
        .field('path', project.path_with_namespace).field('relation', 'issues').attach('file', LIGHT, 'light.tar.gz').expect(201);
      const tracker = posted.body.id as number;
      await eventually(async () => (await db()('relation_imports').where({ id: tracker }).first()).status === 'started');
      await staysUntouched('relation_imports', { id: tracker }, 'status', SLOW_PART_MS);
      expect(await db()('relation_imports').where({ id: tracker }).first()).toMatchObject({ status: 'started', redrives: 0 });
      return tracker;
    });
    const api = await as(owner, project.id);
    await eventually(async () => (await api.get(`/api/v4/projects/${project.id}/relation-imports`).expect(200)).body[0]?.status === 'finished');
    expect(await db()('relation_imports').where({ id }).first()).toMatchObject({ status: 'finished', redrives: 0 });
    expect((await heartbeats('relation_import', id)).length).toBeGreaterThanOrEqual(SLOW_PART_MS / 1000 - 2);
  }, 60_000);
});

describe('heartbeats for jobs that are not running', () => {
  /** Deliveries project-transfer's heartbeat consumer has handled, by outcome. */
  async function handled(outcome: 'ok' | 'failed'): Promise<number> {
    const metric = await fleet.transfer.deps.metrics.registry.getSingleMetric('anvil_events_consumed_total')?.get();
    return (metric?.values ?? []).filter((v) => String(v.labels.queue).endsWith('project-transfer.part-progress') && v.labels.outcome === outcome).reduce((n, v) => n + v.value, 0);
  }

  it('change neither a finished nor a failed job, and one for an unknown job is acknowledged and dropped', async () => {
    const project = await fleet.makeProject(owner);
    const api = await as(owner, project.id);
    await api.post(`/api/v4/projects/${project.id}/export`).expect(202);
    const exported = await eventually(async () => {
      const r = await db()('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
      return r?.job_status === 'finished' && r;
    });
    const res = await fleet.transfer.as({ user: owner }).post('/api/v4/projects/import').field('path', 'not-an-archive').attach('file', Buffer.from('not a tarball'), 'x.tar.gz').expect(201);
    const failed = await eventually(async () => {
      const r = await db()('project_imports').where({ project_id: res.body.id }).first();
      return r?.status === 'failed' && r;
    });
    // the beats of earlier jobs are through
    await eventually(async () => !(await fleet.workItems.deps.db('outbox').whereNull('published_at').first()));
    await sleep(1500);
    const before = { ok: await handled('ok'), failed: await handled('failed') };

    const at = new Date().toISOString();
    const beat = (data: Partial<TransferPartProgressedV1>) => emit(fleet.workItems.deps.db, 'work-items', transferPartProgressed('work-items'), { service: 'work-items', part: 'work-items', at, ...data });
    await beat({ kind: 'export', job_id: exported.job_id });
    await beat({ kind: 'import', job_id: String(failed.id) });
    await beat({ kind: 'export', job_id: randomUUID() });
    await beat({ kind: 'import', job_id: '999999999' });
    await beat({ kind: 'relation_import', job_id: 'not-a-number' });
    await beat({ kind: 'nothing' as never, job_id: '1' });
    await eventually(async () => (await handled('ok')) >= before.ok + 6);
    expect(await handled('failed')).toBe(before.failed);

    expect(await db()('project_exports').where({ id: exported.id }).first()).toMatchObject({ job_status: 'finished', redrives: 0, updated_at: exported.updated_at });
    expect(await db()('project_imports').where({ id: failed.id }).first()).toMatchObject({ status: 'failed', error: failed.error, updated_at: failed.updated_at });
    expect((await api.get(`/api/v4/projects/${project.id}/export`).expect(200)).body.export_status).toBe('finished');
    const imported = await (await as(owner, res.body.id)).get(`/api/v4/projects/${res.body.id}/import`).expect(200);
    expect(imported.body).toMatchObject({ import_status: 'failed', import_error: failed.error });
  }, 60_000);
});
