import type { Request, Router } from 'express';
import { ctx, p, params, RecordNotFoundError } from '@anvil/http';
import { AccessLevel } from '@anvil/auth';
import { requireDeveloper, requireLevel, requireRead, requireUser } from '../access/policy';
import type { Job } from '../jobs/job-row';
import { cancelJob, playJob, retryJob } from '../jobs/job-commands';
import { findProjectJob } from '../jobs/job-store';
import { projectJobsQuery } from '../jobs/jobs-finder';
import type { PipelineRouteDeps } from './deps';
import { jobScope } from './pipeline-params';
import { pageWithoutCount, presentJobs } from './present';

const listParams = params({ scope: jobScope });
const jobIdParams = params({ job_id: p.integer().required() });
const cancelParams = params({ job_id: p.integer().required(), force: p.boolean() });
const playParams = params({
  job_id: p.integer().required(),
  job_variables_attributes: p.array(p.hash({ key: p.string().required(), value: p.string().required() })),
});

/** The project's job `id` or GitLab's `404 Not found`. */
async function jobOr404(deps: PipelineRouteDeps, req: Request, id: number): Promise<Job> {
  const job = await findProjectJob(deps.db, ctx(req).project?.id as number, id);
  if (!job) throw new RecordNotFoundError();
  return job;
}

/** The Jobs API (lib/api/ci/jobs.rb) but traces: every route needs a signed-in caller. */
export function mountJobs(router: Router, deps: PipelineRouteDeps): void {
  const { db, runners } = deps;
  const one = async (req: Request, job: Job) => (await presentJobs(db, req, [job], runners))[0];

  // GET /projects/:id/jobs
  router.get('/projects/:id/jobs', async (req, res) => {
    requireUser(ctx(req));
    requireRead(ctx(req));
    const { scope } = listParams.parse(req);
    const page = await pageWithoutCount<Job>(req, projectJobsQuery(db, ctx(req).project?.id as number, { scope }));
    res.set(page.headers).json(await presentJobs(db, req, page.items, runners));
  });

  // GET /projects/:id/jobs/:job_id
  router.get('/projects/:id/jobs/:job_id', async (req, res) => {
    requireUser(ctx(req));
    requireRead(ctx(req));
    res.json(await one(req, await jobOr404(deps, req, jobIdParams.parse(req).job_id)));
  });

  // POST /projects/:id/jobs/:job_id/cancel
  router.post('/projects/:id/jobs/:job_id/cancel', async (req, res) => {
    const user = requireDeveloper(ctx(req));
    const { job_id, force } = cancelParams.parse(req);
    const job = await jobOr404(deps, req, job_id);
    if (force) requireLevel(ctx(req), AccessLevel.MAINTAINER);
    res.status(201).json(await one(req, await cancelJob(db, job, user, !!force)));
  });

  // POST /projects/:id/jobs/:job_id/retry
  router.post('/projects/:id/jobs/:job_id/retry', async (req, res) => {
    requireUser(ctx(req));
    const job = await jobOr404(deps, req, jobIdParams.parse(req).job_id);
    const user = requireDeveloper(ctx(req));
    res.status(201).json(await one(req, await retryJob(db, job, user)));
  });

  // POST /projects/:id/jobs/:job_id/play
  router.post('/projects/:id/jobs/:job_id/play', async (req, res) => {
    requireUser(ctx(req));
    requireRead(ctx(req));
    const input = playParams.parse(req);
    const job = await jobOr404(deps, req, input.job_id);
    const user = requireDeveloper(ctx(req));
    res.status(200).json(await one(req, await playJob(db, job, user, input.job_variables_attributes ?? [])));
  });
}
