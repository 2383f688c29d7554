import type { Knex } from 'knex';
import type { JobWhen } from '../ci-config/types';
import { CANCELABLE, type Status, STATUSES } from '../jobs/status';
import { SOURCES } from '../pipelines/pipeline-row';

type Row = Record<string, any>;

/** Maps an exported user id to this instance's user: a matched member, else the importer (as GitLab does). */
export type UserMapper = (exportedId: unknown) => number;

/** Counts of what an import created, by relation. */
export type Counts = Record<string, number>;

const BLANK_SHA = '0'.repeat(40);
const WHENS = new Set<JobWhen>(['on_success', 'on_failure', 'always', 'manual', 'delayed']);
const date = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const user = (users: UserMapper, id: unknown) => (id === null || id === undefined ? null : users(id));

/** A status as imported: cancelable (alive) ones and unknown ones become `canceled`, as GitLab's importer does. */
export function importedStatus(status: unknown): Status {
  const s = STATUSES.find((x) => x === status);
  return !s || CANCELABLE.includes(s) || s === 'canceling' ? 'canceled' : s;
}

/** Every job of a line: current `stages[].builds|bridges`, and the legacy `stages[].statuses`. */
export function jobsOf(line: Row): { job: Row; stage: Row; bridge: boolean }[] {
  const out: { job: Row; stage: Row; bridge: boolean }[] = [];
  for (const stage of (line.stages ?? []) as Row[]) {
    for (const job of (stage.builds ?? []) as Row[]) out.push({ job, stage, bridge: false });
    for (const job of (stage.bridges ?? []) as Row[]) out.push({ job, stage, bridge: true });
    for (const job of (stage.statuses ?? []) as Row[]) if (!job.type || job.type === 'Ci::Build' || job.type === 'Ci::Bridge') out.push({ job, stage, bridge: job.type === 'Ci::Bridge' });
  }
  return out;
}

function jobRow(j: Row, stage: Row, bridge: boolean, pipelineId: number, projectId: number, users: UserMapper): Row {
  const vars = Array.isArray(j.yaml_variables) ? j.yaml_variables.filter((v: Row) => v && typeof v.key === 'string') : [];
  const needs = Array.isArray(j.needs) && j.needs.length ? j.needs.filter((n: Row) => n?.name).map((n: Row) => ({ job: String(n.name), artifacts: n.artifacts !== false, optional: Boolean(n.optional) })) : null;
  return {
    pipeline_id: pipelineId, project_id: projectId, type: bridge ? 'bridge' : 'build', name: String(j.name ?? 'job'),
    stage: String(j.stage ?? stage.name ?? 'test'), stage_idx: Number(j.stage_idx ?? stage.position ?? 0) || 0,
    status: importedStatus(j.status), when: WHENS.has(j.when) ? j.when : 'on_success', allow_failure: Boolean(j.allow_failure),
    needs: needs ? JSON.stringify(needs) : null, options: JSON.stringify(j.options && typeof j.options === 'object' ? j.options : {}),
    variables: JSON.stringify(Object.fromEntries(vars.map((v: Row) => [v.key, String(v.value ?? '')]))),
    tags: Array.isArray(j.tag_list) ? j.tag_list.map(String) : [], retried: Boolean(j.retried), user_id: user(users, j.user_id),
    coverage: j.coverage ?? null, failure_reason: j.failure_reason ?? null, exit_code: Number.isInteger(j.exit_code) ? j.exit_code : null,
    created_at: date(j.created_at) ?? new Date(), updated_at: date(j.updated_at) ?? new Date(), queued_at: date(j.queued_at),
    started_at: date(j.started_at), finished_at: date(j.finished_at), erased_at: date(j.erased_at),
  };
}

/** Takes `iid` for the project (or its next free one when the line has none) and records it in the counter. */
async function claimIid(trx: Knex.Transaction, projectId: number, iid: number | null): Promise<number> {
  const { rows } = await trx.raw(
    `INSERT INTO ci_projects (id, path_with_namespace, last_pipeline_iid) VALUES (?, '', COALESCE(?::int, 1))
     ON CONFLICT (id) DO UPDATE SET last_pipeline_iid = GREATEST(ci_projects.last_pipeline_iid, COALESCE(?::int, ci_projects.last_pipeline_iid + 1)), updated_at = now()
     RETURNING last_pipeline_iid`,
    [projectId, iid, iid],
  );
  return iid ?? rows[0].last_pipeline_iid;
}

/**
 * Imports one `ci_pipelines.ndjson` line into `projectId` with its stages' jobs. The iid is kept
 * (a line without one takes the next); a pipeline whose iid exists is skipped whole (a redelivery or
 * a re-import). Running or pending pipelines and jobs come in `canceled`; runner tokens are not kept.
 */
export async function importPipeline(trx: Knex.Transaction, projectId: number, line: Row, users: UserMapper, counts: Counts): Promise<void> {
  const given = Number.isSafeInteger(line.iid) && line.iid > 0 ? Number(line.iid) : null;
  if (given && (await trx('pipelines').where({ project_id: projectId, iid: given }).first('id'))) return;
  if (typeof line.sha !== 'string' || !line.sha) throw new Error('sha is missing');
  const iid = await claimIid(trx, projectId, given);
  const [pipeline] = await trx('pipelines').insert({
    project_id: projectId, iid, name: line.pipeline_metadata?.name ?? null, ref: String(line.ref ?? ''), sha: line.sha,
    before_sha: typeof line.before_sha === 'string' && line.before_sha ? line.before_sha : BLANK_SHA, tag: Boolean(line.tag),
    source: SOURCES.includes(line.source) ? line.source : 'unknown', status: importedStatus(line.status), user_id: user(users, line.user_id),
    yaml_errors: line.yaml_errors ?? null, coverage: line.coverage ?? null, duration: Number.isInteger(line.duration) ? line.duration : null,
    created_at: date(line.created_at) ?? trx.fn.now(), updated_at: date(line.updated_at) ?? trx.fn.now(), started_at: date(line.started_at),
    finished_at: date(line.finished_at), committed_at: date(line.committed_at),
  }).onConflict(['project_id', 'iid']).ignore().returning('id');
  if (!pipeline) return;
  counts.ci_pipelines = (counts.ci_pipelines ?? 0) + 1;
  counts.stages = (counts.stages ?? 0) + ((line.stages ?? []) as Row[]).length;
  const jobs = jobsOf(line).map(({ job, stage, bridge }) => jobRow(job, stage, bridge, pipeline.id, projectId, users));
  if (jobs.length) await trx('jobs').insert(jobs);
  counts.builds = (counts.builds ?? 0) + jobs.length;
}

/**
 * Imports a batch of `ci_pipelines.ndjson` lines that all carry an iid as `importPipeline` does one,
 * in three statements whatever the batch holds: the pipelines (iids the project or an earlier line
 * already has are skipped whole), the iid counter, then all their jobs. Throws when any line fails,
 * so the caller can retry the lines one by one.
 */
export async function importPipelineBatch(trx: Knex.Transaction, projectId: number, lines: Row[], users: UserMapper, counts: Counts): Promise<void> {
  const seen = new Set<number>();
  const fresh: Row[] = [];
  for (const line of lines) {
    if (!Number.isSafeInteger(line.iid) || line.iid <= 0) throw new Error('iid is missing');
    if (typeof line.sha !== 'string' || !line.sha) throw new Error('sha is missing');
    if (!seen.has(line.iid)) fresh.push(line);
    seen.add(line.iid);
  }
  if (!fresh.length) return;
  const rows = fresh.map((line) => ({
    project_id: projectId, iid: Number(line.iid), name: line.pipeline_metadata?.name ?? null, ref: String(line.ref ?? ''), sha: line.sha,
    before_sha: typeof line.before_sha === 'string' && line.before_sha ? line.before_sha : BLANK_SHA, tag: Boolean(line.tag),
    source: SOURCES.includes(line.source) ? line.source : 'unknown', status: importedStatus(line.status), user_id: user(users, line.user_id),
    yaml_errors: line.yaml_errors ?? null, coverage: line.coverage ?? null, duration: Number.isInteger(line.duration) ? line.duration : null,
    created_at: date(line.created_at) ?? trx.fn.now(), updated_at: date(line.updated_at) ?? trx.fn.now(), started_at: date(line.started_at),
    finished_at: date(line.finished_at), committed_at: date(line.committed_at),
  }));
  const inserted = (await trx('pipelines').insert(rows).onConflict(['project_id', 'iid']).ignore().returning(['id', 'iid'])) as { id: number; iid: number }[];
  if (!inserted.length) return;
  await claimIid(trx, projectId, Math.max(...inserted.map((r) => Number(r.iid))));
  const byIid = new Map(fresh.map((l) => [Number(l.iid), l]));
  const jobs: Row[] = [];
  for (const { id, iid } of inserted) {
    const line = byIid.get(Number(iid)) as Row;
    counts.ci_pipelines = (counts.ci_pipelines ?? 0) + 1;
    counts.stages = (counts.stages ?? 0) + ((line.stages ?? []) as Row[]).length;
    for (const { job, stage, bridge } of jobsOf(line)) jobs.push(jobRow(job, stage, bridge, id, projectId, users));
  }
  for (let i = 0; i < jobs.length; i += 1000) await trx('jobs').insert(jobs.slice(i, i + 1000));
  counts.builds = (counts.builds ?? 0) + jobs.length;
}
