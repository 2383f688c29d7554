import type { Request, Router } from 'express';
import { p, paginate, params } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { EmailRow, toEmail } from '../emails/email';
import { addEmail, deleteEmail, findEmail } from '../emails/email-service';
import { emailStore } from '../emails/email-store';
import { toEmailEntity } from '../entities/email';
import type { User } from '../users/user';
import { numericParam } from './helpers';
import { loadCurrentUser, loadUserForAdmin } from './loaders';

const ownParams = params({ email: p.string().required() });
const adminParams = params({ email: p.string().required(), skip_confirmation: p.boolean() });

async function listFor(req: Request, ictx: IdentityContext, user: User) {
  const page = await paginate<EmailRow>(req, emailStore.forUser(ictx.db, user.id));
  return { headers: page.headers, body: page.items.map((r) => toEmailEntity(toEmail(r))) };
}

/** User e-mail routes: the caller's own addresses and, for administrators, any user's. */
export function emailsRoutes(router: Router, ictx: IdentityContext): void {
  // GET /user/emails
  router.get('/user/emails', async (req, res) => {
    const { headers, body } = await listFor(req, ictx, await loadCurrentUser(ictx, req));
    res.set(headers).json(body);
  });

  // GET /user/emails/:email_id
  router.get('/user/emails/:email_id', async (req, res) => {
    const user = await loadCurrentUser(ictx, req);
    res.json(toEmailEntity(await findEmail(ictx, user, numericParam(req, 'email_id'))));
  });

  // POST /user/emails
  router.post('/user/emails', async (req, res) => {
    const user = await loadCurrentUser(ictx, req);
    const input = ownParams.parse(req);
    res.status(201).json(toEmailEntity(await addEmail(ictx, user, input.email, false)));
  });

  // DELETE /user/emails/:email_id
  router.delete('/user/emails/:email_id', async (req, res) => {
    const user = await loadCurrentUser(ictx, req);
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
