import type { Knex } from 'knex';
import { findPipelineById, pickPendingJob, type RunnerMatch } from '../jobs';
import { jobSpec, type JobSpec } from './job-spec';
import { newJobToken, tokenDigest } from './tokens';
import type { Runner } from './types';

/** The projects a runner serves: every project (instance), its project, or its group's projects. */
async function projectsOf(db: Knex, runner: Runner): Promise<number[] | null> {
  if (runner.runnerType === 'instance_type') return null;
  if (runner.runnerType === 'project_type') return [runner.projectId!];
  const like = `${runner.groupFullPath!.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
  const rows: { id: number }[] = await db('ci_projects').select('id').where('path_with_namespace', 'like', like);
  return rows.map((r) => r.id);
}

/**
 * GitLab's `Ci::RegisterJobService` for one runner: the oldest pending job it may take (tags,
 * `run_untagged`, its projects) is claimed atomically and given a fresh job token (kept only as a
 * digest). Null when nothing waits for this runner.
 */
export async function assignJob(db: Knex, runner: Runner, baseUrl: string, features: { cancel_gracefully?: unknown }): Promise<JobSpec | null> {
  const projectIds = await projectsOf(db, runner);
  if (projectIds && projectIds.length === 0) return null;
  const token = newJobToken();
  const match: RunnerMatch = { runnerId: runner.id, tags: runner.tagList, runUntagged: runner.runUntagged, projectIds, cancelGracefully: features.cancel_gracefully === true };
  const job = await pickPendingJob(db, match, tokenDigest(token));
  if (!job) return null;
  const pipeline = await findPipelineById(db, job.pipeline_id);
  return jobSpec(db, job, pipeline!, runner, token, baseUrl);
}
