import type { Request } from 'express';
import type { Knex } from 'knex';
import { ctx, offsetHeaders, pageRequest, RecordNotFoundError, type Page } from '@anvil/http';
import { toBridge, toJob } from '../entities/job';
import { toPipeline, toPipelineWithMetadata, type PipelineView } from '../entities/pipeline';
import type { Job } from '../jobs/job-row';
import { currentJobStatuses } from '../jobs/job-store';
import { jobsContext, type RunnerLookup } from '../jobs/jobs-finder';
import type { Pipeline } from '../pipelines/pipeline-row';
import { findPipeline, usersByIds } from '../pipelines/pipeline-store';

/** The project and base URL entities of this request are built against. */
export function viewOf(req: Request): PipelineView {
  const c = ctx(req);
  return { base: c.base.replace(/\/$/, ''), projectPath: c.project?.path_with_namespace ?? '' };
}

/** The project's pipeline `id` (children included) or GitLab's `404 Not found`. */
export async function pipelineOr404(db: Knex, req: Request, id: number): Promise<Pipeline> {
  const pipeline = await findPipeline(db, ctx(req).project?.id as number, id);
  if (!pipeline) throw new RecordNotFoundError();
  return pipeline;
}

/** `Ci::Pipeline` (`metadata` false) or `PipelineWithMetadata` of a pipeline, loading its user and jobs. */
export async function presentPipeline(db: Knex, req: Request, p: Pipeline, metadata: boolean) {
  const [users, jobs] = await Promise.all([usersByIds(db, [p.user_id]), currentJobStatuses(db, p.id)]);
  const extras = { user: users.get(p.user_id ?? -1) ?? null, jobs };
  return metadata ? toPipelineWithMetadata(p, extras, viewOf(req)) : toPipeline(p, extras, viewOf(req));
}

/** Jobs as `Ci::Job` (builds) or `Ci::Bridge`, with one query per related table. */
export async function presentJobs(db: Knex, req: Request, jobs: Job[], runners?: RunnerLookup) {
  const c = await jobsContext(db, jobs, runners);
  const view = viewOf(req);
  return jobs.map((j) => (j.type === 'bridge' ? toBridge(j, c, view) : toJob(j, c, view)));
}

/** One page of an ordered query without counting (GitLab's `without_count: true`). */
export async function pageWithoutCount<T>(req: Request, query: Knex.QueryBuilder): Promise<Page<T>> {
  const { page, perPage, offset } = pageRequest(req);
  const rows = (await query.clone().limit(perPage + 1).offset(offset)) as T[];
  const hasNext = rows.length > perPage;
  return { items: rows.slice(0, perPage), headers: offsetHeaders(req, { page, perPage, total: null, hasNext }) };
}
