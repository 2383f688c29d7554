import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { compileCiConfig } from './ci-config';
import { repositoryReader } from './repository';
import { mountCiLint } from './routes/ci-lint';
import { mountJobs } from './routes/jobs';
import { mountPipelines } from './routes/pipelines';
import { mountRunnerApi } from './routes/runner-api';
import { runnerSummaries } from './entities/runner';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const pipelineDeps = { db: deps.db, creation: { repository: repositoryReader, compile: compileCiConfig }, runners: runnerSummaries };
  return serviceApp(deps, {
    api: (router) => {
      mountCiLint(router, { db: deps.db, reader: repositoryReader });
      mountPipelines(router, pipelineDeps);
      mountJobs(router, pipelineDeps);
      mountRunnerApi(router, { db: deps.db, identity: deps.identity });
    },
  });
}
