import type { Request, Router } from 'express';
import type { Actor } from '@anvil/auth';
import { ctx, p, params, UnauthorizedError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toSamlGroupLink } from '../entities/saml-group-link';
import type { Group } from '../groups/group-store';
import { Level, requireUser } from '../policy';
import { createSamlGroupLink, deleteSamlGroupLink, findSamlGroupLink } from '../saml/saml-group-link-service';
import { samlGroupLinkStore } from '../saml/saml-group-link-store';
import { loadGroup } from './loaders';

const createParams = params({
  saml_group_name: p.string().required(),
  access_level: p.integer().required().where((n) => [5, 10, 15, 20, 30, 40, 50].includes(n)),
  member_role_id: p.integer(),
  provider: p.string(),
});
const oneParams = params({ saml_group_name: p.string().required(), provider: p.string() });

/** The group of the request for an Owner or administrator; anyone else gets GitLab's 401 here. */
async function adminGroup(ictx: IdentityContext, req: Request): Promise<{ actor: Actor; group: Group }> {
  const actor = requireUser(ctx(req).user);
  const group = await loadGroup(ictx, req);
  if (!actor.admin && group.accessLevel < Level.OWNER) throw new UnauthorizedError();
  return { actor, group };
}

/** SAML group links: which role members of a SAML group get in a group, managed by its Owners. */
export function samlGroupLinksRoutes(router: Router, ictx: IdentityContext): void {
  // GET /groups/:id/saml_group_links
  router.get('/groups/:id/saml_group_links', async (req, res) => {
    const { group } = await adminGroup(ictx, req);
    res.json((await samlGroupLinkStore.list(ictx.db, group.id)).map(toSamlGroupLink));
  });

  // POST /groups/:id/saml_group_links
  router.post('/groups/:id/saml_group_links', async (req, res) => {
    requireUser(ctx(req).user);
    const input = createParams.parse(req);
    const { actor, group } = await adminGroup(ictx, req);
    const link = await createSamlGroupLink(ictx, actor, group.id, input);
    res.status(201).json(toSamlGroupLink(link));
  });

  // GET /groups/:id/saml_group_links/:saml_group_name
  router.get('/groups/:id/saml_group_links/:saml_group_name', async (req, res) => {
    const { group } = await adminGroup(ictx, req);
    const { saml_group_name, provider } = oneParams.parse(req);
    res.json(toSamlGroupLink(await findSamlGroupLink(ictx.db, group.id, saml_group_name, provider)));
  });

  // DELETE /groups/:id/saml_group_links/:saml_group_name
  router.delete('/groups/:id/saml_group_links/:saml_group_name', async (req, res) => {
    const { actor, group } = await adminGroup(ictx, req);
    const { saml_group_name, provider } = oneParams.parse(req);
    await deleteSamlGroupLink(ictx, actor, await findSamlGroupLink(ictx.db, group.id, saml_group_name, provider));
    res.status(204).end();
  });
}
