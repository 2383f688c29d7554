import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { compileCiConfig } from './ci-config';
import { runnerSummaries } from './entities/runner';
import { repositoryReader } from './repository';
import { regexErrors } from './repository/errors';
import { mountBranches } from './routes/branches';
import { mountCiLint } from './routes/ci-lint';
import { mountJobs } from './routes/jobs';
import { mountPipelines } from './routes/pipelines';
import { mountRepositoryFiles } from './routes/repository-files';
import { mountRunnerApi } from './routes/runner-api';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const repositoryDeps = { db: deps.db, maxFileBytes: Number(deps.config.REPOSITORY_MAX_FILE_BYTES ?? 1024 * 1024) };
  const pipelineDeps = { db: deps.db, creation: { repository: repositoryReader, compile: compileCiConfig }, runners: runnerSummaries };
  return serviceApp(deps, {
    errorTranslators: [regexErrors],
    api: (router) => {
      mountRepositoryFiles(router, repositoryDeps);
      mountBranches(router, repositoryDeps);
      mountCiLint(router, { db: deps.db, reader: repositoryReader });
      mountPipelines(router, pipelineDeps);
      mountJobs(router, pipelineDeps);
      mountRunnerApi(router, { db: deps.db, identity: deps.identity });
    },
  });
}
