import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import type { TransferConfig } from './config';
import { ProjectClient } from './identity/project-client';
import { RateLimiter } from './rate-limit';
import type { RouteDeps } from './routes/deps';
import { mountProjectExport } from './routes/project-export';
import { mountProjectImport } from './routes/project-import';
import { mountRelationImport } from './routes/project-relation-import';
import { mountRemoteImport, mountRemoteImportS3 } from './routes/project-remote-import';

/** The parts every export waits for, from `EXPORT_PARTS`. */
export function exportParts(config: Partial<TransferConfig>): string[] {
  return String(config.EXPORT_PARTS ?? 'identity,work-items,pipelines').split(',').map((s) => s.trim()).filter(Boolean);
}

/** The services named in a comma-separated setting. */
export function partsOf(value: unknown, fallback: string): string[] {
  return String(value ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);
}

/** The client of identity's internal transfer API for a running service. */
export function projectClient(deps: ServiceDeps<TransferConfig>): ProjectClient {
  return new ProjectClient(String(deps.config.IDENTITY_URL), deps.internalToken);
}

/** Builds the project-transfer service's express app (no I/O here). */
export function createApp(deps: ServiceDeps<TransferConfig>): Express {
  const routeDeps: RouteDeps = {
    db: deps.db,
    storage: deps.storage,
    projects: projectClient(deps),
    parts: exportParts(deps.config),
    allowLocalRequests: Boolean(deps.config.ALLOW_LOCAL_REQUESTS),
    exportLimiter: new RateLimiter(Number(deps.config.PROJECT_EXPORT_LIMIT ?? 6)),
    downloadLimiter: new RateLimiter(Number(deps.config.PROJECT_DOWNLOAD_EXPORT_LIMIT ?? 1)),
    importLimiter: new RateLimiter(Number(deps.config.PROJECT_IMPORT_LIMIT ?? 6)),
    maxImportBytes: Number(deps.config.MAX_IMPORT_SIZE_MB ?? 0) * 1024 * 1024,
    s3Endpoint: String(deps.config.IMPORT_S3_ENDPOINT ?? ''),
  };
  return serviceApp(deps, {
    api: (router) => {
      mountProjectExport(router, routeDeps);
      mountProjectImport(router, routeDeps);
      mountRemoteImport(router, routeDeps);
      mountRemoteImportS3(router, routeDeps);
      mountRelationImport(router, routeDeps);
    },
    streamBody: (req) => Boolean(req.headers['content-type']?.startsWith('multipart/')),
  });
}
