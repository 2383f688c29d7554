import type { Express } from 'express';
import { serviceApp, ServiceDeps } from '@anvil/runtime';
import type { TransferConfig } from './config';
import { ProjectClient } from './identity/project-client';
import { transferLimiters } from './rate-limit';
import type { RouteDeps } from './routes/deps';
import { liveSettingsFor } from './settings/live-settings';
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
  const settings = liveSettingsFor(deps);
  const routeDeps: RouteDeps = {
    db: deps.db,
    storage: deps.storage,
    projects: projectClient(deps),
    parts: exportParts(deps.config),
    settings,
    get allowLocalRequests() {
      return settings.current.allow_local_requests_from_web_hooks_and_services;
    },
    get localAllowlist() {
      return settings.current.outbound_local_requests_whitelist;
    },
    ...transferLimiters(deps.db, deps.schema),
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
