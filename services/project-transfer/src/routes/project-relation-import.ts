import type { Request, Router } from 'express';
import { AccessLevel, canRead } from '@anvil/auth';
import { ctx, ForbiddenError, HttpError, p, params, UnauthorizedError } from '@anvil/http';
import { toRelationImport } from '../entities/relation-import';
import { requestRelationImport } from '../imports/relation-import-service';
import { relationImportStore } from '../imports/relation-import-store';
import { archiveUpload, NOT_AN_ARCHIVE, receive } from './project-import';
import type { RouteDeps } from './deps';

const RELATIONS = ['issues', 'milestones', 'ci_pipelines', 'merge_requests'];
const relationParams = params({ path: p.string().required(), relation: p.string().required(), file: p.any() });
type Upload = Request & { notAnArchive?: boolean };

/** GitLab's `import-relation` and `relation-imports` routes of `lib/api/project_import.rb`. */
export function mountRelationImport(router: Router, deps: RouteDeps): void {
  // POST /projects/import-relation
  router.post('/projects/import-relation', async (req, res) => {
    const user = ctx(req).user;
    if (!user) throw new UnauthorizedError();
    const settings = await deps.settings.fresh(deps.db);
    await deps.importLimiter.hit(String(user.id), settings.project_import_limit);
    await receive(archiveUpload(deps.storage, deps.settings.maxImportBytes, 20), req, res);
    const input = relationParams.parse(req);
    const drop = () => (req.file ? deps.storage.delete(req.file.path) : Promise.resolve());
    try {
      if ((req as Upload).notAnArchive) throw new HttpError(422, NOT_AN_ARCHIVE);
      if (!req.file) throw new HttpError(400, { error: 'file is missing' });
      const scope = await deps.projects.resolve(input.path, user.id);
      if (!scope || !canRead(scope, user)) throw new HttpError(404, { message: 'Project not found' });
      if (!RELATIONS.includes(input.relation)) throw new HttpError(400, { message: 'Imported relation must be one of issues, merge_requests, milestones, or ci_pipelines' });
      if (!user.admin && scope.access_level < AccessLevel.MAINTAINER) throw new HttpError(403, { message: 'You are not authorized to perform this action' });
      const row = await requestRelationImport(deps.db, { projectId: scope.id, projectPath: scope.path_with_namespace, relation: input.relation, userId: user.id, archiveKey: req.file.path });
      res.status(201).json(toRelationImport(row));
    } catch (e) {
      await drop();
      throw e;
    }
  });

  // GET /projects/:id/relation-imports
  router.get('/projects/:id/relation-imports', async (req, res) => {
    const c = ctx(req);
    if (!c.project) throw new ForbiddenError('Project');
    if (!c.user?.admin && c.project.access_level < AccessLevel.MAINTAINER) throw new ForbiddenError('Project');
    res.json((await relationImportStore.forProject(deps.db, c.project.id)).map(toRelationImport));
  });
}
