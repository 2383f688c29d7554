/**
 * Pipeline processing (GitLab's Ci::PipelineProcessing::AtomicProcessingService and
 * Ci::ProcessBuildService): decides which `created` jobs become pending, manual, scheduled or
 * skipped, then derives the pipeline's status. Runs after creation and after every job status
 * change, serialised per pipeline on the pipeline row's lock. See ../shared/reference/ci-config.md §4, §10, §11.
 */
import type { Knex } from 'knex';
import { emitJobEvent, emitPipelineEvent, jobPayload, JobEvents, pipelinePayload, PipelineEvents } from '../events/pipeline-events';
import type { Pipeline } from '../pipelines/pipeline-row';
import { lockPipeline, projectPath, updatePipeline, usersByIds, variablesOf } from '../pipelines/pipeline-store';
import type { Job } from './job-row';
import { lockCurrentJobs, updateJob } from './job-store';
import { COMPLETED, compositeStatus, type Status } from './status';

/** What processing leaves: the pipeline and its current jobs. */
export interface Processed {
  pipeline: Pipeline;
  jobs: Job[];
}

const inputs = (jobs: Job[]) => jobs.map((j) => ({ status: j.status, allowFailure: j.allow_failure }));

/** The status of what a `created` job waits for: its needs (DAG) or every earlier stage. */
function previousStatus(job: Job, jobs: Job[]): Status {
  if (job.needs !== null) {
    const names = new Set(job.needs.map((n) => n.job));
    return compositeStatus(inputs(jobs.filter((j) => names.has(j.name))), true);
  }
  return compositeStatus(inputs(jobs.filter((j) => j.stage_idx < job.stage_idx)));
}

/** ProcessBuildService: the status a `created` job takes once what it waits for is complete. */
function nextStatus(job: Job, previous: Status): Status {
  const dag = job.needs !== null;
  const gate: Status[] =
    job.when === 'on_failure' ? ['failed'] : job.when === 'always' ? ['success', 'failed', 'skipped'] : dag ? ['success'] : ['success', 'skipped'];
  if (!gate.includes(previous)) return 'skipped';
  if (job.when === 'manual') return 'manual';
  if (job.when === 'delayed') return 'scheduled';
  return 'pending';
}

/** The timestamps a job takes on entering `status` at `now`. */
function enterJobStatus(job: Job, status: Status, now: Date): Partial<Job> {
  const patch: Partial<Job> = { status };
  if (status === 'pending') patch.queued_at = now;
  if (status === 'scheduled') patch.scheduled_at = new Date(now.getTime() + (job.start_in ?? 0) * 1000);
  return patch;
}

/** The timestamps, duration and coverage of a pipeline entering `status`. */
function pipelinePatch(p: Pipeline, status: Status, jobs: Job[], now: Date): Partial<Pipeline> {
  const patch: Partial<Pipeline> = { status };
  const started = jobs.map((j) => j.started_at).filter((d): d is Date => !!d).sort((a, b) => +a - +b)[0] ?? null;
  const startedAt = p.started_at ?? started ?? (status === 'running' ? now : null);
  patch.started_at = startedAt;
  patch.queued_duration = startedAt ? Math.max(0, Math.round((+startedAt - +p.created_at) / 1000)) : null;
  const done = (COMPLETED as readonly string[]).includes(status);
  patch.finished_at = done ? now : null;
  patch.duration = done && startedAt ? Math.max(0, Math.round((+now - +startedAt) / 1000)) : null;
  const coverages = jobs.map((j) => j.coverage).filter((c): c is string => c !== null).map(Number);
  patch.coverage = coverages.length ? (coverages.reduce((a, b) => a + b, 0) / coverages.length).toFixed(2) : null;
  return patch;
}

/**
 * Processes pipeline `pipelineId` in `trx`: moves ready `created` jobs on, stores the derived
 * pipeline status, and writes a `status_changed` event for every job and the pipeline whose status
 * moved. Returns the pipeline and its current jobs.
 */
export async function processPipeline(trx: Knex.Transaction, pipelineId: number, actorId: number | null = null): Promise<Processed> {
  const before = await lockPipeline(trx, pipelineId);
  if (!before) throw new Error(`pipeline ${pipelineId} vanished`);
  const jobs = await lockCurrentJobs(trx, pipelineId);
  const now = new Date();
  const moved = new Map<number, Status>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [i, job] of jobs.entries()) {
      if (job.status !== 'created') continue;
      const previous = previousStatus(job, jobs);
      if (!(COMPLETED as readonly string[]).includes(previous)) continue;
      moved.set(job.id, moved.get(job.id) ?? job.status);
      jobs[i] = { ...job, ...enterJobStatus(job, nextStatus(job, previous), now) };
      changed = true;
    }
  }
  const path = await projectPath(trx, before.project_id);
  for (const [i, job] of jobs.entries()) {
    if (!moved.has(job.id)) continue;
    jobs[i] = await updateJob(trx, job.id, { status: job.status, queued_at: job.queued_at, scheduled_at: job.scheduled_at });
    await emitJobEvent(trx, JobEvents.statusChanged, jobPayload(jobs[i], before, { projectPath: path, previousStatus: moved.get(job.id) ?? null, actorId }));
  }
  const status = jobs.length ? compositeStatus(inputs(jobs)) : 'skipped';
  if (status === before.status) return { pipeline: before, jobs };
  const pipeline = await updatePipeline(trx, pipelineId, pipelinePatch(before, status, jobs, now));
  await emitPipelineEvent(trx, PipelineEvents.statusChanged, await pipelineEventData(trx, pipeline, jobs, before.status, actorId));
  return { pipeline, jobs };
}

/** The payload of a pipeline event, loading its variables, user and project path. */
export async function pipelineEventData(trx: Knex.Transaction, pipeline: Pipeline, jobs: Job[], previousStatus: string | null, actorId: number | null) {
  const variables = await variablesOf(trx, pipeline.id);
  const users = await usersByIds(trx, [pipeline.user_id]);
  const path = await projectPath(trx, pipeline.project_id);
  return pipelinePayload(pipeline, { jobs, variables, user: users.get(pipeline.user_id ?? -1) ?? null, projectPath: path, previousStatus, actorId });
}
