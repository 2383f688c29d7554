import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import multer from 'multer';
import { ctx, ForbiddenError, HttpError, p, params, UnauthorizedError } from '@anvil/http';
import type { Storage } from '@anvil/storage';
import { toProjectImportStatus } from '../entities/project-import-status';
import { scheduleImport } from '../imports/import-service';
import { importStore } from '../imports/import-store';
import { loadProject } from './access';
import type { RouteDeps } from './deps';

const importParams = params({
  path: p.string().required(), file: p.any(), name: p.string(), namespace: p.string(), overwrite: p.boolean().default(false), override_params: p.any(),
});

/** GitLab's 422 body for a file not ending in `.gz`. */
export const NOT_AN_ARCHIVE = { message: { error: 'You need to upload a GitLab project export archive (ending in .gz).' } };

/** A multer storage engine that streams the `file` part straight into storage (never buffered or spooled). */
export function storageEngine(storage: Storage): multer.StorageEngine {
  return {
    _handleFile(_req, file, cb) {
      const key = `imports/uploads/${randomUUID()}.tar.gz`;
      storage.put(key, file.stream, { fresh: true }).then(({ size }) => cb(null, { path: key, size }), (e) => cb(e));
    },
    _removeFile(_req, file, cb) {
      storage.delete(file.path).then(() => cb(null), (e) => cb(e));
    },
  };
}

/** The refusal of a file larger than `max_import_size` (GitLab's Workhorse: `413 Request Entity Too Large`). */
export const FILE_TOO_LARGE = { message: '413 Request Entity Too Large' };

/** Runs multer on the request: fields into `req.body`, the archive into storage as `req.file`. */
export function receive(upload: ReturnType<typeof multer>, req: Request, res: Response): Promise<void> {
  const refusal = (err: unknown) => {
    if (!(err instanceof multer.MulterError)) return err;
    if (err.code === 'LIMIT_FILE_SIZE') return new HttpError(413, FILE_TOO_LARGE);
    return new HttpError(400, { error: `file ${err.message.toLowerCase()}` });
  };
  return new Promise((resolve, reject) => upload.single('file')(req, res, (err?: unknown) => (err ? reject(refusal(err)) : resolve())));
}

/** The upload of one archive under the `max_import_size` in force (`maxBytes`, 0: unlimited). */
export function archiveUpload(storage: Storage, maxBytes: number, fields: number): ReturnType<typeof multer> {
  return multer({
    storage: storageEngine(storage),
    limits: { files: 1, fields, fieldSize: 64 * 1024, ...(maxBytes > 0 ? { fileSize: maxBytes } : {}) },
    fileFilter: (req, file, cb) => {
      const ok = /\.gz$/i.test(file.originalname);
      if (!ok) (req as Request & { notAnArchive?: boolean }).notAnArchive = true;
      cb(null, ok);
    },
  });
}

/** GitLab's `lib/api/project_import.rb`: import an uploaded archive, and the import status. */
export function mountProjectImport(router: Router, deps: RouteDeps): void {
  // POST /projects/import
  router.post('/projects/import', async (req, res) => {
    const user = ctx(req).user;
    if (!user) throw new UnauthorizedError();
    const settings = await deps.settings.fresh(deps.db);
    await receive(archiveUpload(deps.storage, deps.settings.maxImportBytes, 100), req, res);
    const input = importParams.parse(req);
    if ((req as Request & { notAnArchive?: boolean }).notAnArchive) throw new HttpError(422, NOT_AN_ARCHIVE);
    if (!req.file) throw new HttpError(400, { error: 'file is missing' });
    await deps.importLimiter.hit(String(user.id), settings.project_import_limit);
    const override = input.override_params && typeof input.override_params === 'object' ? (input.override_params as Record<string, unknown>) : {};
    const { project, row } = await scheduleImport(deps.db, deps.projects, { userId: user.id, archiveKey: req.file.path, path: input.path, name: input.name, namespace: input.namespace, overwrite: input.overwrite, overrideParams: override });
    res.status(201).json(toProjectImportStatus(project, row, []));
  });

  // GET /projects/:id/import
  router.get('/projects/:id/import', async (req, res) => {
    const c = ctx(req);
    if (!c.project) throw new ForbiddenError();
    const project = await loadProject(deps.projects, c.project.id);
    const row = await importStore.latestFor(deps.db, c.project.id);
    res.json(toProjectImportStatus(project, row, row ? await importStore.failures(deps.db, row.id) : []));
  });
}
