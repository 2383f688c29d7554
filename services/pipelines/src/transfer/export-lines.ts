/**
 * One `ci_pipelines.ndjson` line per pipeline, in GitLab's export tree shape
 * (`import_export.yml`: `ci_pipelines -> stages -> builds, bridges`; shared/reference/import-export.md §2).
 * Runner tokens, traces and runner links are left out. Pure functions of rows.
 */
import type { JobRow } from '../jobs/job-row';
import { compositeStatus, type Status } from '../jobs/status';
import type { Pipeline } from '../pipelines/pipeline-row';

type Row = Record<string, unknown>;

const iso = (v: Date | string | null | undefined): string | null => (v instanceof Date ? v.toISOString() : v ?? null);
const num = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** `Ci::HasStatus::STATUSES_ENUM`: how a stage's status is written (an integer). */
export const STATUS_ENUM: Record<Status, number> = {
  created: 0, pending: 1, running: 2, success: 3, failed: 4, canceled: 5, skipped: 6, manual: 7,
  scheduled: 8, preparing: 9, waiting_for_resource: 10, waiting_for_callback: 11, canceling: 12,
};

/** A `builds[]` (or `bridges[]`) entry of a stage. */
export function buildLine(j: JobRow): Row {
  return {
    status: j.status, finished_at: iso(j.finished_at), created_at: iso(j.created_at), updated_at: iso(j.updated_at),
    started_at: iso(j.started_at), queued_at: iso(j.queued_at), scheduled_at: iso(j.scheduled_at), coverage: num(j.coverage),
    name: j.name, options: j.options, allow_failure: j.allow_failure, stage: j.stage, stage_idx: j.stage_idx, tag: null,
    when: j.when, yaml_variables: Object.entries(j.variables ?? {}).map(([key, value]) => ({ key, value, public: true })),
    tag_list: j.tags, needs: (j.needs ?? []).map((n) => ({ name: n.job, artifacts: n.artifacts, optional: n.optional })), retried: j.retried, user_id: j.user_id, erased_at: iso(j.erased_at),
    failure_reason: j.failure_reason, exit_code: j.exit_code, scheduling_type: j.needs ? 'dag' : 'stages',
    type: j.type === 'bridge' ? 'Ci::Bridge' : 'Ci::Build',
  };
}

/** The `stages[]` of a pipeline, from its jobs (ordered by stage position, then id). */
export function stageLines(pipeline: Pipeline, jobs: JobRow[]): Row[] {
  const byStage = new Map<number, { name: string; jobs: JobRow[] }>();
  for (const j of [...jobs].sort((a, b) => a.stage_idx - b.stage_idx || a.id - b.id)) {
    const stage = byStage.get(j.stage_idx) ?? { name: j.stage, jobs: [] };
    stage.jobs.push(j);
    byStage.set(j.stage_idx, stage);
  }
  return [...byStage.entries()].map(([position, s]) => {
    const current = s.jobs.filter((j) => !j.retried);
    const status = compositeStatus(current.map((j) => ({ status: j.status, allowFailure: j.allow_failure })));
    return {
      name: s.name, status: STATUS_ENUM[status], position, project_id: pipeline.project_id,
      created_at: iso(s.jobs[0].created_at), updated_at: iso(s.jobs[s.jobs.length - 1].updated_at),
      builds: s.jobs.filter((j) => j.type !== 'bridge').map(buildLine),
      bridges: s.jobs.filter((j) => j.type === 'bridge').map(buildLine),
      generic_commit_statuses: [],
    };
  });
}

/** A `ci_pipelines` line with its stages, builds and `pipeline_metadata` (the pipeline's name). */
export function pipelineLine(p: Pipeline, jobs: JobRow[]): Row {
  return {
    ref: p.ref, sha: p.sha, before_sha: p.before_sha, created_at: iso(p.created_at), updated_at: iso(p.updated_at), tag: p.tag,
    yaml_errors: p.yaml_errors, committed_at: iso(p.committed_at), project_id: p.project_id, status: p.status,
    started_at: iso(p.started_at), finished_at: iso(p.finished_at), duration: p.duration, user_id: p.user_id, lock_version: 0,
    source: p.source, protected: false, config_source: 'repository_source', failure_reason: null, iid: p.iid,
    source_sha: null, target_sha: null, coverage: num(p.coverage),
    ...(p.name ? { pipeline_metadata: { project_id: p.project_id, name: p.name } } : {}),
    stages: stageLines(p, jobs),
  };
}
