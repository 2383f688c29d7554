import type { Router } from 'express';
import { ctx, HttpError, p, params } from '@anvil/http';
import { toProjectExportStatus } from '../entities/project-export-status';
import { exportStatus } from '../exports/export-layout';
import { requestExport } from '../exports/export-service';
import { exportStore } from '../exports/export-store';
import { loadProject, requireAdminProject } from './access';
import type { RouteDeps } from './deps';

const exportParams = params({
  description: p.string(),
  upload: p.hash({ url: p.string().required(), http_method: p.enum(['PUT', 'POST'] as const).default('PUT'), headers: p.record() }),
});

/** GitLab's `lib/api/project_export.rb`: schedule, status, download. */
export function mountProjectExport(router: Router, deps: RouteDeps): void {
  // POST /projects/:id/export
  router.post('/projects/:id/export', async (req, res) => {
    const { projectId, userId } = requireAdminProject(ctx(req));
    const input = exportParams.parse(req);
    await deps.exportLimiter.hit(String(userId), (await deps.settings.fresh(deps.db)).project_export_limit);
    const upload = input.upload ? { url: input.upload.url, method: input.upload.http_method, headers: input.upload.headers ?? {} } : null;
    await requestExport(deps, projectId, userId, input.description ?? null, upload);
    res.status(202).json({ message: '202 Accepted' });
  });

  // GET /projects/:id/export
  router.get('/projects/:id/export', async (req, res) => {
    const { projectId, userId } = requireAdminProject(ctx(req));
    const project = await loadProject(deps.projects, projectId);
    const row = await exportStore.find(deps.db, projectId, userId);
    const status = exportStatus(row?.job_status ?? null, Boolean(row?.archive_key));
    res.json(toProjectExportStatus(project, status, ctx(req).base.replace(/\/$/, '')));
  });

  // GET /projects/:id/export/download
  router.get('/projects/:id/export/download', async (req, res) => {
    const c = ctx(req);
    const { projectId, userId } = requireAdminProject(c);
    await deps.downloadLimiter.hit(`${userId}:${c.project?.namespace_id}`, (await deps.settings.fresh(deps.db)).project_download_export_limit);
    const row = await exportStore.find(deps.db, projectId, userId);
    if (!row?.archive_key) throw new HttpError(404, { message: '404 Not found or has expired' });
    const object = await deps.storage.read(row.archive_key);
    if (!object) throw new HttpError(404, { message: 'The project export file is not available yet' });
    res.set({
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${row.archive_name}"; filename*=UTF-8''${encodeURIComponent(row.archive_name ?? '')}`,
      'Content-Transfer-Encoding': 'binary',
      'Content-Length': String(object.size),
    });
    object.body.pipe(res);
  });
}
