import type { Router } from 'express';
import { ctx, HttpError, NotFoundError, p, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toUserWithAdmin } from '../entities/user';
import { requireUser } from '../policy';
import { customAttributeStore } from '../users/custom-attribute-store';
import { identityStore, withIdentities } from '../users/identity-store';
import { updateUser } from '../users/update-user';
import { userStore } from '../users/user-store';
import { formBody } from './form-body';
import { loadUserForAdmin } from './loaders';

const text = () => p.string();
const updateParams = params(
  {
    email: text(), password: text(), skip_reconfirmation: p.boolean(), name: text(), username: text(),
    admin: p.boolean(), external: p.boolean(), can_create_group: p.boolean(), private_profile: p.boolean(),
    projects_limit: p.integer(), theme_id: p.integer(), color_scheme_id: p.integer(),
    bio: text(), location: text(), public_email: text(), website_url: text(), organization: text(), job_title: text(), pronouns: text(),
    linkedin: text(), twitter: text(), discord: text(), github: text(), note: text(), commit_email: text(), extern_uid: text(), provider: text(),
  },
  { allOrNone: [['extern_uid', 'provider']] },
);
const valueParams = params({ value: p.string().required() });

const attributeNotFound = () => new HttpError(404, { message: '404 Not found' });

/** Administrators' user routes: modify a user, delete an identity, and the user's custom attributes. */
export function usersUpdateRoutes(router: Router, ictx: IdentityContext): void {
  // PUT /users/:id
  router.put('/users/:id', formBody, async (req, res) => {
    const c = ctx(req);
    requireUser(c.user);
    const input = updateParams.parse(req);
    const user = await loadUserForAdmin(ictx, req);
    const [updated] = await withIdentities(ictx.db, [await updateUser(ictx, user, input)]);
    const creator = updated.createdById ? await userStore.findById(ictx.db, updated.createdById) : null;
    res.json(toUserWithAdmin(updated, c.base, creator));
  });

  // DELETE /users/:id/identities/:provider
  router.delete('/users/:id/identities/:provider', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    if (!(await identityStore.delete(ictx.db, user.id, String(req.params.provider)))) throw new NotFoundError('Identity');
    res.status(204).end();
  });

  // GET /users/:id/custom_attributes
  router.get('/users/:id/custom_attributes', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    res.json(await customAttributeStore.forUser(ictx.db, user.id));
  });

  // GET /users/:id/custom_attributes/:key
  router.get('/users/:id/custom_attributes/:key', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    const attribute = await customAttributeStore.find(ictx.db, user.id, String(req.params.key));
    if (!attribute) throw attributeNotFound();
    res.json(attribute);
  });

  // PUT /users/:id/custom_attributes/:key
  router.put('/users/:id/custom_attributes/:key', async (req, res) => {
    const { value } = valueParams.parse(req);
    const user = await loadUserForAdmin(ictx, req);
    res.json(await customAttributeStore.set(ictx.db, user.id, String(req.params.key), value));
  });

  // DELETE /users/:id/custom_attributes/:key
  router.delete('/users/:id/custom_attributes/:key', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    if (!(await customAttributeStore.delete(ictx.db, user.id, String(req.params.key)))) throw attributeNotFound();
    res.status(204).end();
  });
}
