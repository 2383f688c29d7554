import type { Router } from 'express';
import { ctx, p, params, UnauthorizedError } from '@anvil/http';
import { toProjectImportStatus } from '../entities/project-import-status';
import { scheduleImport } from '../imports/import-service';
import { fetchRemoteArchive } from '../imports/remote-file';
import { fetchS3Archive } from '../imports/s3-file';
import type { RouteDeps } from './deps';

const remoteParams = params({
  url: p.string().required(), path: p.string().required(), name: p.string(), namespace: p.string(), overwrite: p.boolean().default(false), override_params: p.any(),
});

/** `override_params` as a plain object (anything else: none). */
export function overridesOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** GitLab's `POST /projects/remote-import`: the archive fetched from a URL, then imported as an upload. */
export function mountRemoteImport(router: Router, deps: RouteDeps): void {
  // POST /projects/remote-import
  router.post('/projects/remote-import', async (req, res) => {
    const user = ctx(req).user;
    if (!user) throw new UnauthorizedError();
    const input = remoteParams.parse(req);
    const settings = await deps.settings.fresh(deps.db);
    await deps.importLimiter.hit(String(user.id), settings.project_import_limit);
    const archiveKey = await fetchRemoteArchive(deps.storage, input.url, { allowLocal: settings.allow_local_requests_from_web_hooks_and_services, allowlist: settings.outbound_local_requests_whitelist, maxBytes: deps.settings.maxImportBytes });
    const { project, row } = await scheduleImport(deps.db, deps.projects, {
      userId: user.id, archiveKey, path: input.path, name: input.name, namespace: input.namespace, overwrite: input.overwrite, overrideParams: overridesOf(input.override_params),
    });
    res.status(201).json(toProjectImportStatus(project, row, []));
  });
}

const s3Params = params({
  region: p.string().required(), bucket_name: p.string().required(), file_key: p.string().required(),
  access_key_id: p.string().required(), secret_access_key: p.string().required(),
  path: p.string().required(), name: p.string(), namespace: p.string(), overwrite: p.boolean().default(false), override_params: p.any(),
});

/** GitLab's `POST /projects/remote-import-s3`: the archive read from an S3 bucket with the caller's keys. */
export function mountRemoteImportS3(router: Router, deps: RouteDeps): void {
  // POST /projects/remote-import-s3
  router.post('/projects/remote-import-s3', async (req, res) => {
    const user = ctx(req).user;
    if (!user) throw new UnauthorizedError();
    const input = s3Params.parse(req);
    const settings = await deps.settings.fresh(deps.db);
    await deps.importLimiter.hit(String(user.id), settings.project_import_limit);
    const archiveKey = await fetchS3Archive(deps.storage, {
      region: input.region, bucketName: input.bucket_name, fileKey: input.file_key, accessKeyId: input.access_key_id, secretAccessKey: input.secret_access_key,
    }, { endpoint: deps.s3Endpoint, maxBytes: deps.settings.maxImportBytes });
    const { project, row } = await scheduleImport(deps.db, deps.projects, {
      userId: user.id, archiveKey, path: input.path, name: input.name, namespace: input.namespace, overwrite: input.overwrite, overrideParams: overridesOf(input.override_params),
    });
    res.status(201).json(toProjectImportStatus(project, row, []));
  });
}
