import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { mountJobArtifacts } from './routes/job-artifacts';
import { mountJobTraces } from './routes/job-traces';
import { mountJobsRunner } from './routes/jobs-runner';
import { mountRunnerApi } from './routes/runner-api';
import { mountTestReports } from './routes/test-reports';
import { queueWakerOf } from './runners/job-queue-waker';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const longPollMs = Number(deps.config.RUNNER_LONG_POLL_MS ?? 50_000);
  return serviceApp(deps, {
    api: (router) => {
      mountRunnerApi(router, { db: deps.db, identity: deps.identity });
      mountJobsRunner(router, { db: deps.db, waker: queueWakerOf(deps.db, deps.schema, deps.log), longPollMs });
      mountJobArtifacts(router, { db: deps.db, storage: deps.storage });
      mountJobTraces(router, { db: deps.db });
      mountTestReports(router, { db: deps.db, storage: deps.storage });
    },
  });
}
