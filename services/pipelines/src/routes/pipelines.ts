import type { Router } from 'express';
import { AccessLevel, projectAccess } from '@anvil/auth';
import { checkUnmodifiedSince, ctx, ForbiddenError, paginate } from '@anvil/http';
import { requireDeveloper, requireOwner, requireRead, requireUser } from '../access/policy';
import { toPipelineListItem, toPipelineVariable } from '../entities/pipeline';
import { pipelineJobsQuery } from '../jobs/jobs-finder';
import type { Job } from '../jobs/job-row';
import { createPipeline } from '../pipelines/create-pipeline';
import { cancelPipeline, deletePipeline, renamePipeline, retryPipeline } from '../pipelines/pipeline-service';
import { pipelinesQuery } from '../pipelines/pipelines-finder';
import { latestFor, variablesOf } from '../pipelines/pipeline-store';
import { listBranchRows } from '../repository/repository-store';
import type { PipelineRouteDeps } from './deps';
import { createPipelineParams, latestParams, listPipelinesParams, metadataParams, pipelineIdParams, pipelineJobsParams } from './pipeline-params';
import { pipelineOr404, presentJobs, presentPipeline, viewOf } from './present';

/** The Pipelines API (lib/api/ci/pipelines.rb) but test reports. */
export function mountPipelines(router: Router, { db, creation, runners }: PipelineRouteDeps): void {
  // GET /projects/:id/pipelines
  router.get('/projects/:id/pipelines', async (req, res) => {
    const c = ctx(req);
    requireRead(c);
    const input = listPipelinesParams.parse(req);
    const project = c.project?.id as number;
    const branches = input.scope === 'branches' ? (await listBranchRows(db, project)).map((b) => b.name) : [];
    const page = await paginate<Parameters<typeof toPipelineListItem>[0]>(req, pipelinesQuery(db, project, input, branches));
    res.set(page.headers).json(page.items.map((p) => toPipelineListItem(p, viewOf(req))));
  });

  // POST /projects/:id/pipeline
  router.post('/projects/:id/pipeline', async (req, res) => {
    const c = ctx(req);
    const user = requireDeveloper(c);
    const { ref, variables } = createPipelineParams.parse(req);
    const input = { project: c.project!, user, ref, source: 'api', variables: variables ?? [], baseUrl: viewOf(req).base };
    const { pipeline } = await createPipeline(db, creation, input);
    res.status(201).json(await presentPipeline(db, req, pipeline, false));
  });

  // GET /projects/:id/pipelines/latest
  router.get('/projects/:id/pipelines/latest', async (req, res) => {
    const c = ctx(req);
    const project = c.project?.id as number;
    const ref = latestParams.parse(req).ref ?? (await creation.repository.defaultBranch(db, project));
    const head = ref ? await creation.repository.resolveRef(db, project, ref) : null;
    const pipeline = head ? await latestFor(db, project, head.ref, head.sha) : null;
    if (!pipeline) throw new ForbiddenError();
    requireRead(c);
    res.json(await presentPipeline(db, req, pipeline, true));
  });

  // GET /projects/:id/pipelines/:pipeline_id
  router.get('/projects/:id/pipelines/:pipeline_id', async (req, res) => {
    const pipeline = await pipelineOr404(db, req, pipelineIdParams.parse(req).pipeline_id);
    requireRead(ctx(req));
    res.json(await presentPipeline(db, req, pipeline, true));
  });

  // GET /projects/:id/pipelines/:pipeline_id/jobs and /bridges
  for (const [path, type] of [['jobs', 'build'], ['bridges', 'bridge']] as const) {
    router.get(`/projects/:id/pipelines/:pipeline_id/${path}`, async (req, res) => {
      requireRead(ctx(req));
      const input = pipelineJobsParams.parse(req);
      const pipeline = await pipelineOr404(db, req, input.pipeline_id);
      const query = pipelineJobsQuery(db, pipeline.id, { scope: input.scope, includeRetried: input.include_retried, type });
      const page = await paginate<Job>(req, query);
      res.set(page.headers).json(await presentJobs(db, req, page.items, runners));
    });
  }

  // GET /projects/:id/pipelines/:pipeline_id/variables
  router.get('/projects/:id/pipelines/:pipeline_id/variables', async (req, res) => {
    const pipeline = await pipelineOr404(db, req, pipelineIdParams.parse(req).pipeline_id);
    if (projectAccess(ctx(req)) < AccessLevel.DEVELOPER) throw new ForbiddenError();
    res.json((await variablesOf(db, pipeline.id)).map(toPipelineVariable));
  });

  // DELETE /projects/:id/pipelines/:pipeline_id
  router.delete('/projects/:id/pipelines/:pipeline_id', async (req, res) => {
    requireUser(ctx(req));
    const pipeline = await pipelineOr404(db, req, pipelineIdParams.parse(req).pipeline_id);
    const user = requireOwner(ctx(req));
    checkUnmodifiedSince(req, pipeline.updated_at);
    await deletePipeline(db, pipeline.id, user);
    res.status(204).end();
  });

  // PUT /projects/:id/pipelines/:pipeline_id/metadata
  router.put('/projects/:id/pipelines/:pipeline_id/metadata', async (req, res) => {
    requireUser(ctx(req));
    const { pipeline_id, name } = metadataParams.parse(req);
    const pipeline = await pipelineOr404(db, req, pipeline_id);
    const user = requireDeveloper(ctx(req));
    res.json(await presentPipeline(db, req, await renamePipeline(db, pipeline.id, name, user), true));
  });

  // POST /projects/:id/pipelines/:pipeline_id/retry and /cancel
  for (const [action, run, status] of [['retry', retryPipeline, 201], ['cancel', cancelPipeline, 200]] as const) {
    router.post(`/projects/:id/pipelines/:pipeline_id/${action}`, async (req, res) => {
      requireUser(ctx(req));
      const pipeline = await pipelineOr404(db, req, pipelineIdParams.parse(req).pipeline_id);
      const user = requireDeveloper(ctx(req));
      const processed = await run(db, pipeline.id, user);
      res.status(status).json(await presentPipeline(db, req, processed.pipeline, false));
    });
  }
}
