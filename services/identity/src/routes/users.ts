import type { Request, Router } from 'express';
import { prepared } from '@anvil/db';
import { ctx, ForbiddenError, keysetPaginate, MethodNotAllowedError, NotFoundError, p, Page, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toUserBasic, toUserDetailsWithAdmin, toUserEntity, toUserPublic, toUserWithAdmin } from '../entities/user';
import { requireAdmin, requireUser } from '../policy';
import { createUser } from '../users/create-user';
import { deleteUser, setUserState } from '../users/user-lifecycle';
import { highestRole } from '../users/highest-role';
import { toUser, User, UserRow } from '../users/user';
import { userStore } from '../users/user-store';
import { withIdentities } from '../users/identity-store';
import { customAttributeStore } from '../users/custom-attribute-store';
import { UsersFinder } from '../users/users-finder';
import { searchPage, UserSearch } from '../users/user-search';
import { numericParam } from './helpers';
import { loadCurrentUser, loadUser, loadUserForAdmin } from './loaders';

const listParams = params({
  username: p.string(),
  search: p.string(),
  active: p.boolean(),
  blocked: p.boolean(),
  external: p.boolean(),
  exclude_external: p.boolean(),
  exclude_active: p.boolean(),
  humans: p.boolean(),
  exclude_humans: p.boolean(),
  admins: p.boolean(),
  created_after: p.datetime(),
  created_before: p.datetime(),
  order_by: p.enum(['id', 'name', 'username', 'created_at', 'updated_at'] as const),
  sort: p.enum(['asc', 'desc'] as const),
  pagination: p.enum(['offset', 'keyset'] as const),
  exclude_internal: p.boolean(),
  without_project_bots: p.boolean(),
  extern_uid: p.string(),
  provider: p.string(),
  two_factor: p.enum(['enabled', 'disabled'] as const),
  without_projects: p.boolean(),
  with_custom_attributes: p.boolean(),
}, { allOrNone: [['extern_uid', 'provider']] });

const text = () => p.string();
const createParams = params(
  {
    email: p.string().required(),
    name: p.string().required(),
    username: p.string().required(),
    password: p.string(),
    reset_password: p.boolean(),
    force_random_password: p.boolean(),
    skip_confirmation: p.boolean(),
    admin: p.boolean(),
    external: p.boolean(),
    can_create_group: p.boolean(),
    projects_limit: p.integer(),
    private_profile: p.boolean(),
    theme_id: p.integer(),
    color_scheme_id: p.integer(),
    bio: text(), location: text(), public_email: text(), website_url: text(), organization: text(), job_title: text(), pronouns: text(),
    linkedin: text(), twitter: text(), discord: text(), github: text(), note: text(), commit_email: text(), extern_uid: text(), provider: text(),
  },
  { atLeastOneOf: [['password', 'reset_password', 'force_random_password']], allOrNone: [['extern_uid', 'provider']] },
);

const deleteParams = params({ hard_delete: p.boolean() });
const withAttributesParams = params({ with_custom_attributes: p.boolean() });

async function creators(ictx: IdentityContext, users: User[]) {
  const ids = [...new Set(users.map((u) => u.createdById).filter((x): x is number => x !== null))];
  return new Map((await userStore.findByIds(ictx.db, ids)).map((u) => [u.id, u]));
}

/** `custom_attributes[key]=value` pairs of the query (string values only). */
function customAttributesParam(req: Request): Record<string, string> {
  const raw = req.query.custom_attributes;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** An administrator's users page: UserWithAdmin (with identities and creators), and `custom_attributes` when asked. */
async function renderList(ictx: IdentityContext, base: string, users: User[], withAttributes: boolean) {
  const [by, loaded, attributes] = await Promise.all([creators(ictx, users), withIdentities(ictx.db, users), withAttributes ? customAttributeStore.forUsers(ictx.db, users.map((u) => u.id)) : null]);
  return loaded.map((u) => ({ ...toUserWithAdmin(u, base, by.get(u.createdById ?? 0)), ...(attributes ? { custom_attributes: attributes.get(u.id) ?? [] } : {}) }));
}

/** Users routes: current user, list, single, create, block, unblock, delete. */
export function usersRoutes(router: Router, ictx: IdentityContext): void {
  // GET /user
  router.get('/user', async (req, res) => {
    const c = ctx(req);
    const [user] = await withIdentities(ictx.db, [await loadCurrentUser(ictx, req)]);
    res.json(user.admin ? toUserWithAdmin(user, c.base, (await creators(ictx, [user])).get(user.createdById ?? 0)) : toUserPublic(user, c.base));
  });

  // GET /users
  router.get('/users', async (req, res) => {
    const c = ctx(req);
    const input = listParams.parse(req);
    if (input.extern_uid && input.provider) requireAdmin(c.user);
    if (!c.user && input.username === undefined) throw new ForbiddenError('Not authorized to access /api/v4/users');
    const finder = new UsersFinder(ictx.db, c.user, { ...input, custom_attributes: customAttributesParam(req) });
    let page: Page<UserRow>;
    if (input.pagination === 'keyset') {
      if ((c.user?.admin && input.order_by && input.order_by !== 'id')) throw new MethodNotAllowedError('Keyset pagination is not yet available for this type of request');
      page = await keysetPaginate<UserRow & Record<string, unknown>>(req, finder.execute().clearOrder(), [{ column: 'users.id', key: 'id' }], finder.direction());
    } else if (finder.relevanceOrdered()) {
      page = await searchPage<UserRow>(req, ictx.db, finder.search as UserSearch, finder.unordered(), finder.countQuery());
    } else {
      page = await paginate<UserRow>(req, finder.execute(), { countQuery: finder.countQuery(), prepare: finder.fixedShape() ? (q) => prepared(q, 'identity') : undefined, windowCount: finder.countsInPage() });
    }
    res.set(page.headers);
    if (!c.user?.admin) return void res.json(page.items.map((u) => toUserBasic(u, c.base)));
    res.json(await renderList(ictx, c.base, page.items.map(toUser), !!input.with_custom_attributes));
  });

  // GET /users/:id
  router.get('/users/:id', async (req, res) => {
    const c = ctx(req);
    const id = numericParam(req, 'id');
    if (!c.user) throw new ForbiddenError('Not authorized!');
    const found = await userStore.findById(ictx.db, id);
    if (!found) throw new NotFoundError('User');
    if (!c.user.admin) return void res.json(toUserEntity(found, c.base));
    const [user] = await withIdentities(ictx.db, [found]);
    const body = toUserDetailsWithAdmin(user, c.base, await highestRole(ictx.db, user.id), (await creators(ictx, [user])).get(user.createdById ?? 0));
    const attributes = withAttributesParams.parse(req).with_custom_attributes ? { custom_attributes: await customAttributeStore.forUser(ictx.db, user.id) } : {};
    res.json({ ...body, ...attributes });
  });

  // POST /users
  router.post('/users', async (req, res) => {
    const c = ctx(req);
    requireUser(c.user);
    const input = createParams.parse(req);
    const admin = requireAdmin(c.user);
    const [user] = await withIdentities(ictx.db, [await createUser(ictx, input, admin.id)]);
    res.status(201).json(toUserWithAdmin(user, c.base, { id: admin.id, username: admin.username, name: admin.name, state: 'active' }));
  });
  // POST /users/:id/block
  router.post('/users/:id/block', async (req, res) => {
    const admin = requireAdmin(ctx(req).user);
    const user = await loadUser(ictx, req);
    if (user.id === admin.id) throw new ForbiddenError('The API initiating user cannot be blocked by the API');
    res.status(201).json(user.state === 'blocked' ? null : await setUserState(ictx, user, 'blocked'));
  });

  // POST /users/:id/unblock
  router.post('/users/:id/unblock', async (req, res) => {
    res.status(201).json(await setUserState(ictx, await loadUserForAdmin(ictx, req), 'active'));
  });

  // DELETE /users/:id
  router.delete('/users/:id', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    await deleteUser(ictx, user, !!deleteParams.parse(req).hard_delete);
    res.status(204).end();
  });
}
