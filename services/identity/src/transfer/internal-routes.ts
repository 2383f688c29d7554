import type { Router } from 'express';
import { NotFoundError, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { projectStore } from '../projects/project-store';

const idParams = params({ id: p.integer().required() });

/** Internal routes project-transfer calls: the project identity its status records show. */
export function transferInternalRoutes(router: Router, ictx: IdentityContext): void {
  // GET /internal/v1/transfer/projects/:id
  router.get('/v1/transfer/projects/:id', async (req, res) => {
    const { id } = idParams.parse(req);
    const project = await projectStore.find(ictx.db, id, null);
    if (!project) throw new NotFoundError('Project');
    res.json({
      id: project.id, description: project.description, name: project.name, name_with_namespace: project.nameWithNamespace,
      path: project.path, path_with_namespace: project.pathWithNamespace, created_at: project.createdAt.toISOString(),
    });
  });
}
