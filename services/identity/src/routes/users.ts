import type { Router } from 'express';
import { ctx, ForbiddenError, HttpError, keysetPaginate, MethodNotAllowedError, NotFoundError, p, Page, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { toUserBasic, toUserDetailsWithAdmin, toUserEntity, toUserPublic, toUserWithAdmin } from '../entities/user';
import { requireAdmin, requireUser } from '../policy';
import { createUser } from '../users/create-user';
import { deleteUser, setUserState } from '../users/user-lifecycle';
import { highestRole } from '../users/highest-role';
import { toUser, User, UserRow } from '../users/user';
import { userStore } from '../users/user-store';
import { UsersFinder } from '../users/users-finder';
import { numericParam } from './helpers';

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
});

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

/** The user of `:id` (numeric), or 404 User Not Found. */
async function findUser(ictx: IdentityContext, req: Parameters<typeof numericParam>[0]): Promise<User> {
  const user = await userStore.findById(ictx.db, numericParam(req, 'id'));
  if (!user) throw new NotFoundError('User');
  return user;
}

async function creators(ictx: IdentityContext, users: User[]) {
  const ids = [...new Set(users.map((u) => u.createdById).filter((x): x is number => x !== null))];
  return new Map((await userStore.findByIds(ictx.db, ids)).map((u) => [u.id, u]));
}

/** Users routes: current user, list, single, create, block, unblock, delete. */
export function usersRoutes(router: Router, ictx: IdentityContext): void {
  // GET /user
  router.get('/user', async (req, res) => {
    const c = ctx(req);
    const user = await userStore.findById(ictx.db, requireUser(c.user).id);
    if (!user) throw new NotFoundError('User');
    res.json(user.admin ? toUserWithAdmin(user, c.base, (await creators(ictx, [user])).get(user.createdById ?? 0)) : toUserPublic(user, c.base));
  });

  // GET /users
  router.get('/users', async (req, res) => {
    const c = ctx(req);
    const input = listParams.parse(req);
    if (!c.user && input.username === undefined) throw new ForbiddenError('Not authorized to access /api/v4/users');
    const finder = new UsersFinder(ictx.db, c.user, input);
    let page: Page<UserRow>;
    if (input.pagination === 'keyset') {
      if ((c.user?.admin && input.order_by && input.order_by !== 'id')) throw new MethodNotAllowedError('Keyset pagination is not yet available for this type of request');
      page = await keysetPaginate<UserRow & Record<string, unknown>>(req, finder.execute().clearOrder(), [{ column: 'users.id', key: 'id' }], finder.direction());
    } else {
      page = await paginate<UserRow>(req, finder.execute());
    }
    res.set(page.headers);
    const users = page.items.map(toUser);
    if (!c.user?.admin) return void res.json(users.map((u) => toUserBasic(u, c.base)));
    const by = await creators(ictx, users);
    res.json(users.map((u) => toUserWithAdmin(u, c.base, by.get(u.createdById ?? 0))));
  });

  // GET /users/:id
  router.get('/users/:id', async (req, res) => {
    const c = ctx(req);
    const id = numericParam(req, 'id');
    if (!c.user) throw new ForbiddenError('Not authorized!');
    const user = await userStore.findById(ictx.db, id);
    if (!user) throw new NotFoundError('User');
    if (!c.user.admin) return void res.json(toUserEntity(user, c.base));
    res.json(toUserDetailsWithAdmin(user, c.base, await highestRole(ictx.db, user.id), (await creators(ictx, [user])).get(user.createdById ?? 0)));
  });

  // POST /users
  router.post('/users', async (req, res) => {
    const c = ctx(req);
    requireUser(c.user);
    const input = createParams.parse(req);
    const admin = requireAdmin(c.user);
    if (input.extern_uid) throw new HttpError(400, { message: { identities: ['is invalid'] } });
    const user = await createUser(ictx, input, admin.id);
    res.status(201).json(toUserWithAdmin(user, c.base, { id: admin.id, username: admin.username, name: admin.name, state: 'active' }));
  });
  // POST /users/:id/block
  router.post('/users/:id/block', async (req, res) => {
    const admin = requireAdmin(ctx(req).user);
    const user = await findUser(ictx, req);
    if (user.id === admin.id) throw new ForbiddenError('The API initiating user cannot be blocked by the API');
    res.status(201).json(user.state === 'blocked' ? null : await setUserState(ictx, user, 'blocked'));
  });

  // POST /users/:id/unblock
  router.post('/users/:id/unblock', async (req, res) => {
    requireAdmin(ctx(req).user);
    res.status(201).json(await setUserState(ictx, await findUser(ictx, req), 'active'));
  });

  // DELETE /users/:id
  router.delete('/users/:id', async (req, res) => {
    requireAdmin(ctx(req).user);
    const user = await findUser(ictx, req);
    await deleteUser(ictx, user, !!deleteParams.parse(req).hard_delete);
    res.status(204).end();
  });
}
