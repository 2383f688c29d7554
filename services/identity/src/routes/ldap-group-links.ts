import type { Request, Router } from 'express';
import { ctx, ForbiddenError, NotFoundError, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toLdapGroupLinkEntity } from '../entities/ldap-group-link';
import type { Group } from '../groups/group-store';
import { groupStore } from '../groups/group-store';
import { createLink, deleteLink, listLinks } from '../ldap/ldap-link-service';
import type { LdapProvider } from '../ldap/ldap-provider';
import { requestLdapSync } from '../ldap/ldap-sync';
import { MEMBER_LEVELS } from '../members/member';
import { Level, requireLevel, requireUser } from '../policy';
import { idOrPath } from './helpers';
import { loadGroup } from './loaders';

const createParams = params(
  { cn: p.string(), filter: p.string(), group_access: p.integer().where((n) => MEMBER_LEVELS.includes(n)).required(), provider: p.string().required(), member_role_id: p.integer() },
  { exactlyOneOf: [['cn', 'filter']] },
);
const deleteParams = params({ cn: p.string(), filter: p.string(), provider: p.string().required() }, { exactlyOneOf: [['cn', 'filter']] });

/**
 * The group of an LDAP link route for a signed-in Owner or administrator. As GitLab looks the
 * group up without a visibility check, a missing or invisible group is 403, like a forbidden one.
 */
async function ownedGroup(ictx: IdentityContext, req: Request): Promise<Group> {
  const actor = requireUser(ctx(req).user);
  const group = await groupStore.find(ictx.db, idOrPath(req), actor.id);
  if (!group) throw new ForbiddenError();
  requireLevel(actor, group.accessLevel, Level.OWNER);
  return group;
}

/** LDAP group links of a group and its on-demand LDAP sync (GitLab EE). */
export function ldapGroupLinksRoutes(router: Router, ictx: IdentityContext, providers: LdapProvider[]): void {
  // GET /groups/:id/ldap_group_links
  router.get('/groups/:id/ldap_group_links', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    res.json((await listLinks(ictx, group.id)).map(toLdapGroupLinkEntity));
  });

  // POST /groups/:id/ldap_group_links
  router.post('/groups/:id/ldap_group_links', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const input = createParams.parse(req);
    const link = await createLink(ictx, group.id, input);
    res.status(201).json(toLdapGroupLinkEntity(link));
  });

  // DELETE /groups/:id/ldap_group_links (cn or filter, and provider, in the body or query)
  router.delete('/groups/:id/ldap_group_links', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    const input = deleteParams.parse(req);
    await deleteLink(ictx, group.id, { cn: input.cn, filter: input.filter, provider: input.provider });
    res.status(204).end();
  });

  // DELETE /groups/:id/ldap_group_links/:cn
  router.delete('/groups/:id/ldap_group_links/:cn', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    await deleteLink(ictx, group.id, { cn: req.params.cn });
    res.status(204).end();
  });

  // DELETE /groups/:id/ldap_group_links/:provider/:cn
  router.delete('/groups/:id/ldap_group_links/:provider/:cn', async (req, res) => {
    const group = await ownedGroup(ictx, req);
    await deleteLink(ictx, group.id, { cn: req.params.cn, provider: req.params.provider });
    res.status(204).end();
  });

  // POST /groups/:id/ldap_sync
  router.post('/groups/:id/ldap_sync', async (req, res) => {
    if (!providers.length) throw new NotFoundError();
    const group = await loadGroup(ictx, req);
    const actor = ctx(req).user;
    if (!actor || (!actor.admin && group.accessLevel < Level.OWNER)) throw new ForbiddenError();
    await requestLdapSync(ictx, group.id, actor.id);
    res.status(202).json(202);
  });
}
