/**
 * Job entities (lib/api/entities/ci/job_basic.rb, job.rb, bridge.rb). See ../shared/reference/runner.md §8.
 */
import type { Job } from '../jobs/job-row';
import type { JobsContext } from '../jobs/jobs-finder';
import type { CommitRow } from '../repository/repository-store';
import type { Pipeline } from '../pipelines/pipeline-row';
import { toPipelineBasic, type PipelineView } from './pipeline';
import { toUserBasic } from './user';


const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const BLANK_SHA = '0'.repeat(40);

/** Seconds from `from` to `to` (or to now while unfinished), as GitLab's `duration` helpers. */
function span(from: Date | null, to: Date | null, now: Date): number | null {
  if (!from) return null;
  return ((to ? +new Date(to) : +now) - +new Date(from)) / 1000;
}

/** GitLab's `Commit` entity of a job's commit (from the repository, or what the pipeline knows). */
export function toCommit(p: Pipeline, commit: CommitRow | undefined, view: PipelineView) {
  const message = commit?.message ?? '';
  return {
    id: p.sha, short_id: p.sha.slice(0, 8), created_at: iso(commit?.committed_at ?? p.committed_at ?? p.created_at),
    parent_ids: commit ? commit.parent_shas : p.before_sha === BLANK_SHA ? [] : [p.before_sha],
    title: message.split('\n')[0], message,
    author_name: commit?.author_name ?? null, author_email: commit?.author_email ?? null, authored_date: iso(commit?.authored_at ?? null),
    committer_name: commit?.committer_name ?? null, committer_email: commit?.committer_email ?? null, committed_date: iso(commit?.committed_at ?? null),
    trailers: {}, extended_trailers: {},
    web_url: `${view.base}/${view.projectPath}/-/commit/${p.sha}`,
  };
}

/** `JobBasic`. */
export function toJobBasic(j: Job, c: JobsContext, view: PipelineView) {
  const p = c.pipelines.get(j.pipeline_id) as Pipeline;
  return {
    id: j.id, status: j.status, stage: j.stage, name: j.name, ref: p.ref, tag: p.tag,
    coverage: j.coverage === null ? null : Number(j.coverage), allow_failure: j.allow_failure,
    created_at: iso(j.created_at), started_at: iso(j.started_at), finished_at: iso(j.finished_at), erased_at: iso(j.erased_at),
    duration: span(j.started_at, j.finished_at, c.now), queued_duration: span(j.queued_at, j.started_at, c.now),
    user: toUserBasic(c.users.get(j.user_id ?? -1), view.base), commit: toCommit(p, c.commits.get(p.sha), view), pipeline: toPipelineBasic(p, view),
    ...(j.status === 'failed' ? { failure_reason: j.failure_reason } : {}),
    web_url: `${view.base}/${view.projectPath}/-/jobs/${j.id}`,
    project: { ci_job_token_scope_enabled: false },
  };
}

/** `Ci::Job` (builds). */
export function toJob(j: Job, c: JobsContext, view: PipelineView) {
  const artifacts = c.artifacts.get(j.id) ?? [];
  const archive = artifacts.find((a) => a.file_type === 'archive');
  return {
    ...toJobBasic(j, c, view),
    ...(archive ? { artifacts_file: { filename: archive.filename, size: Number(archive.size) } } : {}),
    artifacts: artifacts.map((a) => ({ file_type: a.file_type, size: Number(a.size), filename: a.filename, file_format: a.file_format })),
    runner: j.runner_id === null ? null : (c.runners.get(j.runner_id) ?? null),
    runner_manager: null,
    artifacts_expire_at: iso(archive?.expire_at ?? null),
    archived: false,
    tag_list: [...j.tags].sort(),
  };
}

/** `Ci::Bridge` (trigger jobs). */
export function toBridge(j: Job, c: JobsContext, view: PipelineView) {
  return { ...toJobBasic(j, c, view), downstream_pipeline: null };
}
