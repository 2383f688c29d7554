import type { Router } from 'express';
import { ctx, p, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toGroupDetail } from '../entities/group';
import { toBasicProjectDetails, toProjectEntity } from '../entities/project';
import { shareGroup, unshareGroup, visibleInvitedGroups } from '../groups/group-share-service';
import { groupStore } from '../groups/group-store';
import { visibleOr404, requireUser } from '../policy';
import { ProjectRow, toProject } from '../projects/project';
import { ProjectsFinder } from '../projects/projects-finder';
import { integerPathParam } from './helpers';
import { loadGroup } from './loaders';
import { projectListParams } from './projects';

const shareParams = params({
  group_id: p.integer().required(),
  group_access: p.integer().where((n) => [10, 15, 20, 30, 40, 50].includes(n)).required(),
  expires_at: p.date(),
  member_role_id: p.integer(),
});
// the shared list declares neither `topic` nor `owned`
const { topic: _topic, owned: _owned, ...sharedProjectsShape } = projectListParams;
const sharedProjectsParams = params(sharedProjectsShape);

/** Group sharing routes: share a group with another group, unshare it, and the projects shared with a group. */
export function groupShareRoutes(router: Router, ictx: IdentityContext): void {
  // POST /groups/:id/share
  router.post('/groups/:id/share', async (req, res) => {
    const c = ctx(req);
    const actor = requireUser(c.user);
    const input = shareParams.parse(req);
    const group = await loadGroup(ictx, req);
    const invited = visibleOr404(await groupStore.find(ictx.db, input.group_id, actor.id), (g) => g.accessLevel, actor, 'Group');
    await shareGroup(ictx, actor, group, invited, { groupAccess: input.group_access, expiresAt: input.expires_at ?? null });
    res.status(201).json(toGroupDetail(group, c.base, null, await visibleInvitedGroups(ictx, actor, { ...group, shared: true })));
  });

  // DELETE /groups/:id/share/:group_id
  router.delete('/groups/:id/share/:group_id', async (req, res) => {
    const actor = requireUser(ctx(req).user);
    const sharedWithId = integerPathParam(req, 'group_id');
    const group = await loadGroup(ictx, req);
    await unshareGroup(ictx, actor, group, sharedWithId);
    res.status(204).end();
  });

  // GET /groups/:id/projects/shared
  router.get('/groups/:id/projects/shared', async (req, res) => {
    const c = ctx(req);
    const group = await loadGroup(ictx, req);
    const input = sharedProjectsParams.parse(req);
    const finder = new ProjectsFinder(ictx.db, c.user, input, { groupId: group.id, includeSubgroups: false, onlyShared: true });
    const { items, headers } = await paginate<ProjectRow>(req, finder.execute());
    res.set(headers);
    res.json(items.map(toProject).map((pr) => (input.simple ? toBasicProjectDetails(pr, c.base) : toProjectEntity(pr, c.base))));
  });
}
