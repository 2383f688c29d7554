/**
 * GitLab's Ci::JobsFinder: a project's jobs (retried ones included) or a pipeline's (retried ones
 * only on request), filtered by `scope[]`, newest first; and what a page of them is serialised from.
 */
import type { Knex } from 'knex';
import { commitsBySha, type CommitRow } from '../repository/repository-store';
import type { Pipeline } from '../pipelines/pipeline-row';
import { usersByIds, type UserSnapshot } from '../pipelines/pipeline-store';
import type { Job } from './job-row';
import type { Status } from './status';

/** The job lists' parameters. */
export interface JobsParams {
  scope?: Status[];
  includeRetried?: boolean;
  type?: 'build' | 'bridge';
}

function byScope(q: Knex.QueryBuilder, p: JobsParams): void {
  if (p.scope?.length) q.whereIn('status', p.scope);
}

/** A project's builds, newest first (GET /projects/:id/jobs). */
export function projectJobsQuery(db: Knex, projectId: number, p: JobsParams): Knex.QueryBuilder {
  const q = db('jobs').where({ project_id: projectId, type: 'build' });
  byScope(q, p);
  return q.orderBy('id', 'desc');
}

/** A pipeline's builds or bridges, newest first (GET /projects/:id/pipelines/:pipeline_id/jobs|bridges). */
export function pipelineJobsQuery(db: Knex, pipelineId: number, p: JobsParams): Knex.QueryBuilder {
  const q = db('jobs').where({ pipeline_id: pipelineId, type: p.type ?? 'build' });
  if (!p.includeRetried) q.where({ retried: false });
  byScope(q, p);
  return q.orderBy('id', 'desc');
}

/** A stored artifact of a job (its metadata). */
export interface ArtifactRow {
  job_id: number | string;
  file_type: string;
  size: number | string;
  filename: string;
  file_format: string;
  expire_at: Date | null;
}

/** A runner summary source, filled by the runners part of the service. */
export type RunnerLookup = (db: Knex, ids: number[]) => Promise<Map<number, Record<string, unknown>>>;

/** The rows a page of jobs is serialised from, loaded once per page. */
export interface JobsContext {
  pipelines: Map<number, Pipeline>;
  users: Map<number, UserSnapshot>;
  /** The runners that ran the page's jobs, as `Entities::Ci::Runner`, by id. */
  runners: Map<number, Record<string, unknown>>;
  /** The stored artifacts of the page's jobs, by job id. */
  artifacts: Map<number, ArtifactRow[]>;
  /** The commits of the page's pipelines, by sha. */
  commits: Map<string, CommitRow>;
  now: Date;
}

/** Loads, in one query each, the pipelines, users, commits and runners a page of jobs shows. */
export async function jobsContext(db: Knex, jobs: Job[], runners?: RunnerLookup): Promise<JobsContext> {
  const pipelineIds = [...new Set(jobs.map((j) => j.pipeline_id))];
  const pipelines: Pipeline[] = pipelineIds.length ? await db('pipelines').whereIn('id', pipelineIds) : [];
  const runnerIds = [...new Set(jobs.map((j) => j.runner_id).filter((x): x is number => x !== null))];
  const commits = new Map<string, CommitRow>();
  for (const projectId of new Set(pipelines.map((p) => p.project_id))) {
    const found = await commitsBySha(db, projectId, pipelines.filter((p) => p.project_id === projectId).map((p) => p.sha));
    for (const [sha, row] of found) commits.set(sha, row);
  }
  const artifacts: ArtifactRow[] = jobs.length
    ? await db('job_artifacts').select('job_id', 'file_type', 'size', 'filename', 'file_format', 'expire_at').whereIn('job_id', jobs.map((j) => j.id)).orderBy('id')
    : [];
  const byJob = new Map<number, ArtifactRow[]>();
  for (const a of artifacts) byJob.set(Number(a.job_id), [...(byJob.get(Number(a.job_id)) ?? []), a]);
  return {
    pipelines: new Map(pipelines.map((p) => [p.id, p])),
    artifacts: byJob,
    users: await usersByIds(db, jobs.map((j) => j.user_id)),
    runners: runners && runnerIds.length ? await runners(db, runnerIds) : new Map(),
    commits,
    now: new Date(),
  };
}
