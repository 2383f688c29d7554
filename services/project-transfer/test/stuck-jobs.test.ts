import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@anvil/auth';
import { sweepDeps } from '../src';
import { sweepStuckJobs, type SweepDeps } from '../src/sweep/sweeper';
import { eventually, startTransferFleet, type TransferFleet } from './support/transfer-fleet';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/gitlab-export');
const LIGHT = readFileSync(path.join(FIXTURES, 'light.tar.gz'));

let fleet: TransferFleet;
let owner: Actor;
let deps: SweepDeps;

// pipelines is not running here: a job waiting for its part stalls, as one whose part message was lost
beforeAll(async () => {
  fleet = await startTransferFleet({
    EXPORT_PARTS: 'identity,work-items,pipelines', IMPORT_PARTS: 'identity,work-items,pipelines',
    TRANSFER_SWEEP_INTERVAL_SECONDS: '0', TRANSFER_STALL_SECONDS: '600', TRANSFER_MAX_REDRIVES: '2',
    PROJECT_EXPORT_LIMIT: '0', PROJECT_IMPORT_LIMIT: '0',
  });
  owner = await fleet.makeUser();
  deps = sweepDeps(fleet.transfer.deps as never);
});
afterAll(async () => fleet?.stop());

const db = () => fleet.transfer.deps.db;

/** Moves a job's last progress (and, with `ageSeconds`, its start) into the past, as if that long went by. */
async function age(table: string, id: number, stalledSeconds: number, ageSeconds?: { column: string; seconds: number }) {
  const set: Record<string, unknown> = { updated_at: db().raw('now() - make_interval(secs => ?)', [stalledSeconds]) };
  if (ageSeconds) set[ageSeconds.column] = db().raw('now() - make_interval(secs => ?)', [ageSeconds.seconds]);
  await db()(table).where({ id }).update(set);
}

async function outboxOf(type: string, key: string, value: string | number) {
  return db()('outbox').where({ type }).whereRaw(`data->>'${key}' = ?`, [String(value)]).orderBy('id');
}

async function as(user: Actor, projectId: number) {
  return fleet.transfer.as({ user, project: await fleet.scope(projectId, user) });
}

/** A started export of a new project: identity's and work-items' parts in, pipelines' missing. */
async function stalledExport() {
  const project = await fleet.makeProject(owner);
  await (await as(owner, project.id)).post(`/api/v4/projects/${project.id}/export`).expect(202);
  const row = await eventually(async () => {
    const r = await db()('project_exports').where({ project_id: project.id, user_id: owner.id }).first();
    return r && Object.keys(r.parts_received).length === 2 && r;
  });
  return { project, row };
}

/** A started import of the light fixture: identity's and work-items' parts in, pipelines' missing. */
async function stalledImport(name: string) {
  const res = await fleet.transfer.as({ user: owner }).post('/api/v4/projects/import').field('path', name).attach('file', LIGHT, 'light.tar.gz').expect(201);
  const row = await eventually(async () => {
    const r = await db()('project_imports').where({ project_id: res.body.id }).first();
    return r && r.parts_received.length === 2 && r;
  });
  return { projectId: res.body.id as number, row };
}

describe('the stuck-job sweep', () => {
  it('leaves a job alone while it makes progress', async () => {
    const { row } = await stalledExport();
    const result = await sweepStuckJobs(deps);
    expect(result.exports).toEqual({ redriven: 0, failed: 0 });
    expect(await db()('project_exports').where({ id: row.id }).first()).toMatchObject({ job_status: 'started', redrives: 0 });
  });

  it('two sweeps at once re-drive a stalled export once, asking only for the missing part', async () => {
    const { project, row } = await stalledExport();
    await age('project_exports', row.id, 1200);
    const [a, b] = await Promise.all([sweepStuckJobs(deps), sweepStuckJobs(deps)]);
    expect(a.exports.redriven + b.exports.redriven).toBe(1);
    const after = await db()('project_exports').where({ id: row.id }).first();
    expect(after).toMatchObject({ job_status: 'started', redrives: 1 });
    expect(new Date(after.updated_at).getTime()).toBeGreaterThan(Date.now() - 30_000);
    const requests = await outboxOf('transfer.export.requested', 'export_id', row.job_id);
    expect(requests.map((r: { data: Record<string, unknown> }) => r.data.parts ?? null)).toEqual([null, ['pipelines']]);
    expect(requests[1].data).toMatchObject({ export_id: row.job_id, project_id: project.id, user_id: owner.id, prefix: `exports/${row.job_id}/` });
    // a second pass right away finds it making progress (the re-drive)
    expect((await sweepStuckJobs(deps)).exports).toEqual({ redriven: 0, failed: 0 });
  });

  it('fails an export still stalled after the last re-drive: GET answers failed', async () => {
    const { project, row } = await stalledExport();
    for (let i = 0; i < 2; i++) {
      await age('project_exports', row.id, 1200);
      expect((await sweepStuckJobs(deps)).exports).toEqual({ redriven: 1, failed: 0 });
    }
    await age('project_exports', row.id, 1200);
    expect((await sweepStuckJobs(deps)).exports).toEqual({ redriven: 0, failed: 1 });
    const res = await (await as(owner, project.id)).get(`/api/v4/projects/${project.id}/export`).expect(200);
    expect(res.body.export_status).toBe('failed');
    expect(res.body._links).toBeUndefined();
    expect(await db()('project_exports').where({ id: row.id }).first()).toMatchObject({
      job_status: 'failed', redrives: 2, error: 'Export timed out. Export made no progress in 600 seconds after 2 retries',
    });
    expect(await outboxOf('transfer.export.failed', 'export_id', row.job_id)).toHaveLength(1);
    expect(await fleet.transfer.deps.storage.head(`exports/${row.job_id}/tree/project.json`)).toBeNull();
  });

  it('assembles a stalled export whose parts are all in, unless a delivery is assembling it right now', async () => {
    const { project, row } = await stalledExport();
    // pipelines' report was recorded, but the delivery that was to assemble the archive was lost
    await db()('project_exports').where({ id: row.id }).update({ parts_received: JSON.stringify({ ...row.parts_received, pipelines: {} }) });
    await age('project_exports', row.id, 1200);
    const holder = await db().transaction();
    try {
      await holder.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`project-export:${row.job_id}`]);
      expect((await sweepStuckJobs(deps)).exports).toEqual({ redriven: 0, failed: 0 });
      expect(await db()('project_exports').where({ id: row.id }).first()).toMatchObject({ job_status: 'started', redrives: 0 });
    } finally {
      await holder.rollback();
    }
    await age('project_exports', row.id, 1200);
    expect((await sweepStuckJobs(deps)).exports).toEqual({ redriven: 1, failed: 0 });
    const res = await (await as(owner, project.id)).get(`/api/v4/projects/${project.id}/export`).expect(200);
    expect(res.body.export_status).toBe('finished');
    expect(await db()('project_exports').where({ id: row.id }).first()).toMatchObject({ job_status: 'finished', redrives: 1 });
    expect(await outboxOf('transfer.export.requested', 'export_id', row.job_id)).toHaveLength(1);
  });

  it('fails a stalled export older than GitLab\'s 6 h expiry without re-driving it', async () => {
    const { project, row } = await stalledExport();
    await age('project_exports', row.id, 1200, { column: 'requested_at', seconds: 6 * 3600 + 1 });
    expect((await sweepStuckJobs(deps)).exports).toEqual({ redriven: 0, failed: 1 });
    expect((await (await as(owner, project.id)).get(`/api/v4/projects/${project.id}/export`)).body.export_status).toBe('failed');
    expect(await db()('project_exports').where({ id: row.id }).first()).toMatchObject({ redrives: 0, error: 'Export timed out. Export took longer than 21600 seconds' });
  });

  it('re-drives a stalled import to the services whose parts are missing', async () => {
    const { row } = await stalledImport('redriven');
    expect(new Date(row.updated_at).getTime()).toBeGreaterThan(new Date(row.created_at).getTime());
    await age('project_imports', row.id, 1200);
    expect((await sweepStuckJobs(deps)).imports).toEqual({ redriven: 1, failed: 0 });
    expect(await outboxOf('transfer.import.requested', 'import_id', row.id)).toHaveLength(2);
    const unpacked = await eventually(async () => {
      const events = await outboxOf('transfer.import.unpacked', 'import_id', row.id);
      return events.length === 2 && events;
    });
    expect(unpacked.map((e: { data: Record<string, unknown> }) => e.data.parts ?? null)).toEqual([null, ['pipelines']]);
    const after = await db()('project_imports').where({ id: row.id }).first();
    expect(after).toMatchObject({ status: 'started', redrives: 1 });
    expect([...after.parts_received].sort()).toEqual(['identity', 'work-items']);
  });

  it('fails a stalled import older than 24 h with GitLab\'s import_error', async () => {
    const { projectId, row } = await stalledImport('expired');
    await age('project_imports', row.id, 1200, { column: 'created_at', seconds: 24 * 3600 + 1 });
    expect((await sweepStuckJobs(deps)).imports).toEqual({ redriven: 0, failed: 1 });
    const res = await (await as(owner, projectId)).get(`/api/v4/projects/${projectId}/import`).expect(200);
    expect(res.body).toMatchObject({ import_status: 'failed', import_error: 'Import timed out. Import took longer than 86400 seconds', failed_relations: [] });
    expect(await fleet.transfer.deps.storage.head(`imports/${row.id}/tree/project.json`)).toBeNull();
  });

  it('fails an import still stalled after the last re-drive', async () => {
    const { projectId, row } = await stalledImport('limited');
    await db()('project_imports').where({ id: row.id }).update({ redrives: 2 });
    await age('project_imports', row.id, 1200);
    expect((await sweepStuckJobs(deps)).imports).toEqual({ redriven: 0, failed: 1 });
    const res = await (await as(owner, projectId)).get(`/api/v4/projects/${projectId}/import`).expect(200);
    expect(res.body).toMatchObject({ import_status: 'failed', import_error: 'Import timed out. Import made no progress in 600 seconds after 2 retries' });
  });

  it('re-drives a stalled relation import to its owner, then fails it; GET relation-imports answers failed', async () => {
    const project = await fleet.makeProject(owner);
    const posted = await fleet.transfer.as({ user: owner }).post('/api/v4/projects/import-relation')
      .field('path', project.path_with_namespace).field('relation', 'ci_pipelines').attach('file', LIGHT, 'light.tar.gz').expect(201);
    const id = posted.body.id as number;
    await eventually(async () => (await db()('relation_imports').where({ id }).first()).status === 'started');
    await age('relation_imports', id, 1200);
    expect((await sweepStuckJobs(deps)).relationImports).toEqual({ redriven: 1, failed: 0 });
    await eventually(async () => (await outboxOf('transfer.relation-import.unpacked', 'relation_import_id', id)).length === 2);
    await db()('relation_imports').where({ id }).update({ redrives: 2 });
    await age('relation_imports', id, 1200);
    expect((await sweepStuckJobs(deps)).relationImports).toEqual({ redriven: 0, failed: 1 });
    const res = await (await as(owner, project.id)).get(`/api/v4/projects/${project.id}/relation-imports`).expect(200);
    expect(res.body.map((t: { id: number; status: string }) => [t.id, t.status])).toEqual([[id, 'failed']]);
  });
});
