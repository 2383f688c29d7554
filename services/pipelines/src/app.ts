import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import { repositoryReader } from './repository';
import { regexErrors } from './repository/errors';
import { mountBranches } from './routes/branches';
import { mountCiLint } from './routes/ci-lint';
import { mountRepositoryFiles } from './routes/repository-files';

/** Builds the pipelines service's express app (no I/O here). */
export function createApp(deps: ServiceDeps): Express {
  const repositoryDeps = { db: deps.db, maxFileBytes: Number(deps.config.REPOSITORY_MAX_FILE_BYTES ?? 1024 * 1024) };
  return serviceApp(deps, {
    errorTranslators: [regexErrors],
    api: (router) => {
      mountRepositoryFiles(router, repositoryDeps);
      mountBranches(router, repositoryDeps);
      mountCiLint(router, { db: deps.db, reader: repositoryReader });
    },
  });
}
