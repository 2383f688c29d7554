import type { Knex } from 'knex';
import { emit, JobEvents, PipelineEvents, type JobEventV1, type PipelineEventBuildV1, type PipelineEventV1 } from '@anvil/events';
import { statusLabel } from '../entities/detailed-status';
import { seconds, type Job } from '../jobs/job-row';
import { hasWarnings } from '../jobs/status';
import type { Pipeline, PipelineVariable } from '../pipelines/pipeline-row';
import type { UserSnapshot } from '../pipelines/pipeline-store';

/** The producer name on every event this service publishes. */
export const PRODUCER = 'pipelines';

export { JobEvents, PipelineEvents } from '@anvil/events';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A job as the pipeline event's `builds[]` lists it. */
export function buildPayload(j: Job): PipelineEventBuildV1 {
  return {
    id: j.id,
    stage: j.stage,
    name: j.name,
    status: j.status,
    created_at: new Date(j.created_at).toISOString(),
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    duration: seconds(j.started_at, j.finished_at),
    queued_duration: seconds(j.queued_at, j.started_at),
    failure_reason: j.failure_reason,
    when: j.when,
    manual: j.when === 'manual',
    allow_failure: j.allow_failure,
    user_id: j.user_id,
    runner_id: j.runner_id,
  };
}

/** What a pipeline event is built from beyond the pipeline row. */
export interface PipelineEventContext {
  jobs: Job[];
  variables: PipelineVariable[];
  user: UserSnapshot | null;
  projectPath: string | null;
  previousStatus: string | null;
  actorId: number | null;
}

/** The payload of a pipeline event. */
export function pipelinePayload(p: Pipeline, c: PipelineEventContext): PipelineEventV1 {
  const stages = [...new Map(c.jobs.map((j) => [j.stage_idx, j.stage])).entries()].sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  return {
    id: p.id, iid: p.iid, project_id: p.project_id, project_path: c.projectPath, name: p.name,
    ref: p.ref, tag: p.tag, sha: p.sha, before_sha: p.before_sha, source: p.source, status: p.status,
    previous_status: c.previousStatus,
    detailed_status: statusLabel({ status: p.status, kind: 'pipeline', warnings: hasWarnings(jobInputs(c.jobs)) }),
    stages,
    created_at: new Date(p.created_at).toISOString(), updated_at: new Date(p.updated_at).toISOString(),
    started_at: iso(p.started_at), finished_at: iso(p.finished_at),
    duration: p.duration, queued_duration: p.queued_duration, coverage: p.coverage,
    user: c.user ? { id: c.user.id, username: c.user.username, name: c.user.name } : null,
    variables: c.variables.map((v) => ({ key: v.key, value: v.value })),
    builds: c.jobs.map(buildPayload),
    parent_pipeline_id: p.parent_pipeline_id,
    actor_id: c.actorId,
  };
}

/** The payload of a job event. */
export function jobPayload(j: Job, p: Pipeline, extra: { projectPath: string | null; previousStatus: string | null; actorId: number | null }): JobEventV1 {
  return {
    ...buildPayload(j),
    pipeline_id: p.id, project_id: j.project_id, project_path: extra.projectPath,
    ref: p.ref, tag: p.tag, sha: p.sha, before_sha: p.before_sha,
    previous_status: extra.previousStatus, exit_code: j.exit_code, retries_count: j.retries, retried: j.retried,
    tags: j.tags, pipeline_name: p.name, actor_id: extra.actorId,
  };
}

function jobInputs(jobs: Job[]) {
  return jobs.map((j) => ({ status: j.status, allowFailure: j.allow_failure }));
}

/** Writes a pipeline event to the outbox in the caller's transaction. */
export async function emitPipelineEvent(trx: Knex.Transaction, type: (typeof PipelineEvents)[keyof typeof PipelineEvents], data: PipelineEventV1): Promise<void> {
  await emit(trx, PRODUCER, type, data);
}

/** Writes a job event to the outbox in the caller's transaction. */
export async function emitJobEvent(trx: Knex.Transaction, type: (typeof JobEvents)[keyof typeof JobEvents], data: JobEventV1): Promise<void> {
  await emit(trx, PRODUCER, type, data);
}
