import type { Router } from 'express';
import type { Request } from 'express';
import { ctx, HttpError, p, paginateArray, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toGroupDetail } from '../entities/group';
import { shareGroup, unshareGroup, visibleInvitedGroups } from '../groups/group-share-service';
import { groupStore } from '../groups/group-store';
import { visibleOr404, requireUser } from '../policy';
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

/** A path param declared Integer: anything else is Grape's 400 `<name> is invalid`. */
function integerPathParam(req: Request, name: string): number {
  const raw = String(req.params[name] ?? '');
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, { error: `${name} is invalid` });
  return Number(raw);
}

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
    await loadGroup(ictx, req);
    sharedProjectsParams.parse(req);
    const page = paginateArray(req, []);
    res.set(page.headers);
    res.json(page.items);
  });
}
