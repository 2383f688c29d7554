import type { Router } from 'express';
import { ctx, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toProjectGroupLink } from '../entities/project-group-link';
import { Level, requireLevel, requireUser } from '../policy';
import { effectiveLevel } from '../projects/project';
import { shareProject, unshareProject } from '../projects/project-share-service';
import { integerPathParam } from './helpers';
import { loadProject } from './loaders';

const shareParams = params({
  group_id: p.integer().required(),
  group_access: p.integer().where((n) => [10, 15, 20, 30, 40, 50].includes(n)).required(),
  expires_at: p.date(),
});

/** Project sharing routes (Maintainers): share a project with a group, unshare it. */
export function projectShareRoutes(router: Router, ictx: IdentityContext): void {
  // POST /projects/:id/share
  router.post('/projects/:id/share', async (req, res) => {
    const actor = requireUser(ctx(req).user);
    const input = shareParams.parse(req);
    const project = await loadProject(ictx, req);
    requireLevel(actor, effectiveLevel(project), Level.MAINTAINER);
    const link = await shareProject(ictx, actor, project, { groupId: input.group_id, groupAccess: input.group_access, expiresAt: input.expires_at ?? null });
    res.status(201).json(toProjectGroupLink(link));
  });

  // DELETE /projects/:id/share/:group_id
  router.delete('/projects/:id/share/:group_id', async (req, res) => {
    const actor = requireUser(ctx(req).user);
    const groupId = integerPathParam(req, 'group_id');
    const project = await loadProject(ictx, req);
    requireLevel(actor, effectiveLevel(project), Level.MAINTAINER);
    await unshareProject(ictx, project, groupId);
    res.status(204).end();
  });
}
