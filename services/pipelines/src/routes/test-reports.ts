import type { Router } from 'express';
import type { Knex } from 'knex';
import { ctx, p, params, RecordNotFoundError } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { toTestReport, toTestReportSummary } from '../entities/test-report';
import { findPipeline, projectPath } from '../pipelines/pipeline-store';
import { artifactStore } from '../runners/artifact-store';
import { authorizeReadBuild } from '../runners/read-build';
import { buildTestSuites } from '../test-reports/report';
import type { TestSuite } from '../test-reports/test-suite';

const pipelineParams = params({ pipeline_id: p.integer().required() });

/** GitLab's pipeline test reports, built from the JUnit artifacts of the pipeline's current jobs. */
export function mountTestReports(router: Router, { db, storage }: { db: Knex; storage: Storage }): void {
  async function suitesOf(projectId: number, pipelineId: number): Promise<TestSuite[]> {
    const pipeline = await findPipeline(db, projectId, pipelineId);
    if (!pipeline) throw new RecordNotFoundError();
    const artifacts = await artifactStore.junitOfPipeline(db, pipeline.id);
    return buildTestSuites(artifacts.map((a) => ({ jobId: a.jobId, jobName: a.jobName, format: a.fileFormat, open: () => storage.get(a.storageKey) })));
  }

  // GET /projects/:id/pipelines/:pipeline_id/test_report
  router.get('/projects/:id/pipelines/:pipeline_id/test_report', async (req, res) => {
    const c = ctx(req);
    const { pipeline_id } = pipelineParams.parse(req);
    authorizeReadBuild(c);
    const suites = await suitesOf(c.project!.id, pipeline_id);
    const path = (await projectPath(db, c.project!.id)) ?? c.project!.path_with_namespace;
    res.status(200).json(toTestReport(suites, (jobId, file) => `${c.base.replace(/\/$/, '')}/${path}/-/jobs/${jobId}/artifacts/file/${file}`));
  });

  // GET /projects/:id/pipelines/:pipeline_id/test_report_summary
  router.get('/projects/:id/pipelines/:pipeline_id/test_report_summary', async (req, res) => {
    const c = ctx(req);
    const { pipeline_id } = pipelineParams.parse(req);
    authorizeReadBuild(c);
    res.status(200).json(toTestReportSummary(await suitesOf(c.project!.id, pipeline_id)));
  });
}
