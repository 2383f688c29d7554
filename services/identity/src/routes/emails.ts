import type { Request, Router } from 'express';
import { ctx, NotFoundError, p, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { EmailRow, toEmail } from '../emails/email';
import { addEmail, deleteEmail, findEmail } from '../emails/email-service';
import { emailStore } from '../emails/email-store';
import { toEmailEntity } from '../entities/email';
import { requireUser } from '../policy';
import type { User } from '../users/user';
import { userStore } from '../users/user-store';
import { numericParam } from './helpers';
import { loadUserForAdmin } from './loaders';

const ownParams = params({ email: p.string().required() });
const adminParams = params({ email: p.string().required(), skip_confirmation: p.boolean() });

/** The signed-in caller as a stored user (401 for anonymous callers). */
async function me(ictx: IdentityContext, req: Request): Promise<User> {
  const user = await userStore.findById(ictx.db, requireUser(ctx(req).user).id);
  if (!user) throw new NotFoundError('User');
  return user;
}

async function listFor(req: Request, ictx: IdentityContext, user: User) {
  const page = await paginate<EmailRow>(req, emailStore.forUser(ictx.db, user.id));
  return { headers: page.headers, body: page.items.map((r) => toEmailEntity(toEmail(r))) };
}

/** User e-mail routes: the caller's own addresses and, for administrators, any user's. */
export function emailsRoutes(router: Router, ictx: IdentityContext): void {
  // GET /user/emails
  router.get('/user/emails', async (req, res) => {
    const { headers, body } = await listFor(req, ictx, await me(ictx, req));
    res.set(headers).json(body);
  });

  // GET /user/emails/:email_id
  router.get('/user/emails/:email_id', async (req, res) => {
    const user = await me(ictx, req);
    res.json(toEmailEntity(await findEmail(ictx, user, numericParam(req, 'email_id'))));
  });

  // POST /user/emails
  router.post('/user/emails', async (req, res) => {
    const user = await me(ictx, req);
    const input = ownParams.parse(req);
    res.status(201).json(toEmailEntity(await addEmail(ictx, user, input.email, false)));
  });

  // DELETE /user/emails/:email_id
  router.delete('/user/emails/:email_id', async (req, res) => {
    const user = await me(ictx, req);
    await deleteEmail(ictx, await findEmail(ictx, user, numericParam(req, 'email_id')));
    res.status(204).end();
  });

  // GET /users/:id/emails
  router.get('/users/:id/emails', async (req, res) => {
    const { headers, body } = await listFor(req, ictx, await loadUserForAdmin(ictx, req));
    res.set(headers).json(body);
  });

  // POST /users/:id/emails
  router.post('/users/:id/emails', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    const input = adminParams.parse(req);
    res.status(201).json(toEmailEntity(await addEmail(ictx, user, input.email, !!input.skip_confirmation)));
  });

  // DELETE /users/:id/emails/:email_id
  router.delete('/users/:id/emails/:email_id', async (req, res) => {
    const user = await loadUserForAdmin(ictx, req);
    await deleteEmail(ictx, await findEmail(ictx, user, numericParam(req, 'email_id')));
    res.status(204).end();
  });
}
