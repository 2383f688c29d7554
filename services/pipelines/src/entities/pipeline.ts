/**
 * Pipeline entities (lib/api/entities/ci/pipeline_basic.rb, pipeline.rb, pipeline_with_metadata.rb):
 * list items are `PipelineBasicWithMetadata`; create, retry and cancel answer `Ci::Pipeline` (no
 * `name`); GET one, latest and metadata answer `PipelineWithMetadata`. See ../shared/reference/pipelines.md §4.
 */
import { hasWarnings } from '../jobs/status';
import type { Job } from '../jobs/job-row';
import type { Pipeline } from '../pipelines/pipeline-row';
import type { UserSnapshot } from '../pipelines/pipeline-store';
import { detailedStatus, type DetailedStatus } from './detailed-status';
import { toUserBasic, type UserBasic } from './user';

/** What serialising needs beyond the row: the public base URL, the project's path, the caller's rights. */
export interface PipelineView {
  base: string;
  projectPath: string;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The pipeline's page, relative (`details_path`). */
export function pipelinePath(view: PipelineView, id: number): string {
  return `/${view.projectPath}/-/pipelines/${id}`;
}

/** `PipelineBasic`. */
export function toPipelineBasic(p: Pick<Pipeline, 'id' | 'iid' | 'project_id' | 'sha' | 'ref' | 'status' | 'source' | 'created_at' | 'updated_at'>, view: PipelineView) {
  return {
    id: p.id, iid: p.iid, project_id: p.project_id, sha: p.sha, ref: p.ref, status: p.status, source: p.source,
    created_at: iso(p.created_at), updated_at: iso(p.updated_at), web_url: `${view.base}${pipelinePath(view, p.id)}`,
  };
}

/** `PipelineBasicWithMetadata` (list items). */
export function toPipelineListItem(p: Parameters<typeof toPipelineBasic>[0] & { name: string | null }, view: PipelineView) {
  return { ...toPipelineBasic(p, view), name: p.name };
}

/** What `Ci::Pipeline` adds to the row. */
export interface PipelineExtras {
  user: UserSnapshot | null;
  /** The current jobs (for "passed with warnings"). */
  jobs: Pick<Job, 'status' | 'allow_failure'>[];
}

/** `Ci::Pipeline` (create, retry, cancel). */
export function toPipeline(p: Pipeline, extras: PipelineExtras, view: PipelineView) {
  const warnings = hasWarnings(extras.jobs.map((j) => ({ status: j.status, allowFailure: j.allow_failure })));
  const user: UserBasic | null = toUserBasic(extras.user, view.base);
  const detailed: DetailedStatus = detailedStatus({ status: p.status, kind: 'pipeline', warnings }, pipelinePath(view, p.id), true);
  return {
    ...toPipelineBasic(p, view),
    before_sha: p.before_sha, tag: p.tag, yaml_errors: p.yaml_errors, user,
    started_at: iso(p.started_at), finished_at: iso(p.finished_at), committed_at: iso(p.committed_at),
    duration: p.duration, queued_duration: p.queued_duration, coverage: p.coverage === null ? null : Number(p.coverage).toFixed(2),
    detailed_status: detailed,
  };
}

/** `PipelineWithMetadata` (GET one, latest, metadata). */
export function toPipelineWithMetadata(p: Pipeline, extras: PipelineExtras, view: PipelineView) {
  return { ...toPipeline(p, extras, view), name: p.name };
}

/** A pipeline variable (`Entities::Ci::Variable` for pipeline variables). */
export function toPipelineVariable(v: { key: string; value: string; variable_type: string }) {
  return { variable_type: v.variable_type, key: v.key, value: v.value };
}
