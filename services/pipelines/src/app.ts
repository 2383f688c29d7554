import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { compileCiConfig } from './ci-config';
import { runnerSummaries } from './entities/runner';
import { repositoryReader } from './repository';
import { regexErrors } from './repository/errors';
import { mountBranches } from './routes/branches';
import { mountCiLint } from './routes/ci-lint';
import { mountJobArtifacts } from './routes/job-artifacts';
import { mountJobTraces } from './routes/job-traces';
import { mountJobs } from './routes/jobs';
import { mountJobsRunner } from './routes/jobs-runner';
import { mountPipelines } from './routes/pipelines';
import { mountRepositoryFiles } from './routes/repository-files';
import { mountRunnerApi } from './routes/runner-api';
import { mountTestReports } from './routes/test-reports';
import { queueWakerOf } from './runners/job-queue-waker';
import { ScanGate } from './runners/scan-gate';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const repositoryDeps = { db: deps.db, maxFileBytes: Number(deps.config.REPOSITORY_MAX_FILE_BYTES ?? 1024 * 1024) };
  const pipelineDeps = { db: deps.db, creation: { repository: repositoryReader, compile: compileCiConfig }, runners: runnerSummaries };
  const longPollMs = Number(deps.config.RUNNER_LONG_POLL_MS ?? 50_000);
  return serviceApp(deps, {
    errorTranslators: [regexErrors],
    api: (router) => {
      mountRepositoryFiles(router, repositoryDeps);
      mountBranches(router, repositoryDeps);
      mountCiLint(router, { db: deps.db, reader: repositoryReader });
      mountTestReports(router, { db: deps.db, storage: deps.storage });
      mountPipelines(router, pipelineDeps);
      mountJobTraces(router, { db: deps.db });
      mountJobs(router, pipelineDeps);
      mountRunnerApi(router, { db: deps.db, identity: deps.identity });
      mountJobsRunner(router, { db: deps.db, waker: queueWakerOf(deps.directDb, deps.schema, deps.log), longPollMs, scans: new ScanGate(4), traceLimit: Number(deps.config.JOB_TRACE_LIMIT_BYTES ?? 100 * 1024 * 1024) });
      mountJobArtifacts(router, { db: deps.db, storage: deps.storage });
    },
  });
}
