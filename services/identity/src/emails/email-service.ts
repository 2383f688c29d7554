import { NotFoundError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import type { User } from '../users/user';
import { Email, EMAIL_FORMAT, normaliseEmail } from './email';
import { emailStore } from './email-store';

const TAKEN = { email: ['has already been taken'] };

/**
 * Adds a secondary address to `user` and writes `identity.email.created`. The address is stored
 * trimmed and lower-cased; one held by anyone (this user's primary included, primary or secondary,
 * case-insensitively) or a malformed one is a 400 with field errors, as GitLab's Email model
 * answers. `confirmed` (an administrator's `skip_confirmation`) marks it confirmed now.
 */
export async function addEmail(ctx: IdentityContext, user: User, address: string, confirmed: boolean): Promise<Email> {
  const email = normaliseEmail(address);
  if (!email) throw new ValidationError({ email: ["can't be blank"] });
  if (!EMAIL_FORMAT.test(email)) throw new ValidationError({ email: ['is invalid'] });
  if (await emailStore.taken(ctx.db, email)) throw new ValidationError(TAKEN);
  try {
    return await ctx.db.transaction(async (trx) => {
      const created = await emailStore.insert(trx, { user_id: user.id, email, confirmed_at: confirmed ? new Date() : null });
      await publish.email(trx, 'created', created);
      return created;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'emails_email_lower_idx')) throw new ValidationError(TAKEN);
    throw e;
  }
}

/** A secondary address of `user`, or 404 `Email Not Found` (the primary has no id here). */
export async function findEmail(ctx: IdentityContext, user: Pick<User, 'id'>, id: number): Promise<Email> {
  const email = await emailStore.find(ctx.db, user.id, id);
  if (!email) throw new NotFoundError('Email');
  return email;
}

/**
 * Deletes a secondary address and writes `identity.email.deleted`. A commit or public e-mail that
 * was this address falls back to the primary (null), as GitLab unsets matching secondary e-mails.
 */
export async function deleteEmail(ctx: IdentityContext, email: Email): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await emailStore.delete(trx, email.id);
    await trx('users').where('id', email.userId).whereRaw('lower(commit_email) = ?', [email.email]).update({ commit_email: null });
    await trx('users').where('id', email.userId).whereRaw('lower(public_email) = ?', [email.email]).update({ public_email: null });
    await publish.email(trx, 'deleted', email);
  });
}
