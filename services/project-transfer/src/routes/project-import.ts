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

/** Runs multer on the request: fields into `req.body`, the archive into storage as `req.file`. */
export function receive(upload: ReturnType<typeof multer>, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => upload.single('file')(req, res, (err?: unknown) => (err ? reject(err instanceof multer.MulterError ? new HttpError(400, { error: `file ${err.message.toLowerCase()}` }) : err) : resolve())));
}

/** GitLab's `lib/api/project_import.rb`: import an uploaded archive, and the import status. */
export function mountProjectImport(router: Router, deps: RouteDeps): void {
  const upload = multer({
    storage: storageEngine(deps.storage),
    limits: { files: 1, fields: 100, fieldSize: 64 * 1024, ...(deps.maxImportBytes > 0 ? { fileSize: deps.maxImportBytes } : {}) },
    fileFilter: (req, file, cb) => {
      const ok = /\.gz$/i.test(file.originalname);
      if (!ok) (req as Request & { notAnArchive?: boolean }).notAnArchive = true;
      cb(null, ok);
    },
  });

  // POST /projects/import
  router.post('/projects/import', async (req, res) => {
    const user = ctx(req).user;
    if (!user) throw new UnauthorizedError();
    await receive(upload, req, res);
    const input = importParams.parse(req);
    if ((req as Request & { notAnArchive?: boolean }).notAnArchive) throw new HttpError(422, NOT_AN_ARCHIVE);
    if (!req.file) throw new HttpError(400, { error: 'file is missing' });
    deps.importLimiter.hit(String(user.id));
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
