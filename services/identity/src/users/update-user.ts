import { ConflictError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { EMAIL_FORMAT } from '../emails/email';
import { emailStore } from '../emails/email-store';
import { publish } from '../events/publish';
import { namespacePathErrors } from '../namespaces/paths';
import { namespaceStore } from '../namespaces/namespace-store';
import type { Db } from '../sql';
import type { UserAttributes } from './create-user';
import { identityStore } from './identity-store';
import { hashPassword } from './passwords';
import type { User, UserRow } from './user';
import { userStore } from './user-store';

/** Attributes `PUT /users/:id` changes (absent ones stay as they are). */
export interface UserChanges extends UserAttributes {
  email?: string;
  skip_reconfirmation?: boolean;
  username?: string;
  name?: string;
  password?: string;
}

/** Columns copied from the params of the same name. */
const PLAIN = ['name', 'admin', 'external', 'can_create_group', 'projects_limit', 'private_profile', 'theme_id', 'color_scheme_id', 'bio', 'location', 'website_url', 'organization', 'job_title', 'pronouns', 'linkedin', 'twitter', 'discord', 'github', 'note'] as const;

const same = (a: string, b: string | null) => b !== null && a.toLowerCase() === b.toLowerCase();

/** Addresses of `user` that count as verified: the primary and confirmed secondary ones. */
async function verifiedEmails(db: Db, user: User): Promise<string[]> {
  const rows = (await db('emails').where('user_id', user.id).whereNotNull('confirmed_at').select('email')) as { email: string }[];
  return [user.email, ...rows.map((r) => r.email)];
}

/** GitLab's model validation of the changed attributes; `{}` when valid. */
async function changeErrors(db: Db, user: User, c: UserChanges): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, msg: string) => (errors[field] ??= []).push(msg);
  if (c.email !== undefined && !EMAIL_FORMAT.test(c.email)) add('email', 'is invalid');
  else if (c.email !== undefined && !same(c.email, user.email)) {
    const secondary = await emailStore.findByAddress(db, user.id, c.email);
    if (!secondary || (!secondary.confirmedAt && !c.skip_reconfirmation)) add('email', 'is not an email you own');
  }
  if (c.username !== undefined) for (const m of namespacePathErrors(c.username, true)) add('username', m);
  if (c.username !== undefined && !errors.username && user.namespaceId && (await namespaceStore.fullPathTaken(db, c.username, user.namespaceId))) add('username', 'has already been taken');
  if (c.name !== undefined && !c.name.trim()) add('name', "can't be blank");
  if (c.name !== undefined && c.name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  if (c.password !== undefined && c.password.length < 8) add('password', 'is too short (minimum is 8 characters)');
  if (c.password !== undefined && c.password.length > 128) add('password', 'is too long (maximum is 128 characters)');
  if (c.bio !== undefined && c.bio.length > 255) add('bio', 'is too long (maximum is 255 characters)');
  if (c.projects_limit !== undefined && c.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0');
  const verified = c.public_email || (c.commit_email && c.commit_email !== '_private') ? await verifiedEmails(db, user) : [];
  if (c.public_email && !verified.some((v) => same(c.public_email as string, v))) add('public_email', 'is not an email you own');
  if (c.commit_email && c.commit_email !== '_private' && !verified.some((v) => same(c.commit_email as string, v))) add('commit_email', 'is not an email you own');
  return errors;
}

async function patchFor(c: UserChanges): Promise<Partial<UserRow>> {
  const patch: Partial<UserRow> = {};
  const target = patch as Record<string, unknown>;
  for (const k of PLAIN) if (c[k] !== undefined) target[k] = c[k];
  if (c.username !== undefined) patch.username = c.username;
  if (c.public_email !== undefined) patch.public_email = c.public_email || null;
  if (c.commit_email !== undefined) patch.commit_email = c.commit_email || null;
  if (c.password !== undefined) patch.password_digest = await hashPassword(c.password);
  return patch;
}

/**
 * Makes the secondary address `email` the user's primary one: that row goes, the old primary
 * becomes a secondary address with its confirmation carried over (GitLab's primary-email swap),
 * and the user is confirmed when the address was or `skip` is set.
 */
async function swapPrimary(trx: Db, user: User, email: string, skip: boolean, patch: Partial<UserRow>): Promise<void> {
  const secondary = await emailStore.findByAddress(trx, user.id, email);
  if (!secondary) return;
  await emailStore.delete(trx, secondary.id);
  await publish.email(trx, 'deleted', secondary);
  const old = await emailStore.insert(trx, { user_id: user.id, email: user.email.toLowerCase(), confirmed_at: user.confirmedAt });
  await publish.email(trx, 'created', old);
  patch.email = secondary.email;
  patch.confirmed_at = secondary.confirmedAt ?? (skip ? new Date() : null);
}

/**
 * Applies an administrator's changes to a user in one transaction and writes
 * `identity.user.updated`. An e-mail or username another user holds is a 409 with GitLab's
 * sentence; the e-mail may only become one of the user's own secondary addresses (confirmed, or
 * with `skip_reconfirmation`); a new username renames the personal namespace; `extern_uid` with
 * `provider` sets that identity. Other invalid values are a 400 with field errors.
 */
export async function updateUser(ctx: IdentityContext, user: User, c: UserChanges): Promise<User> {
  if (c.email !== undefined && (await emailStore.taken(ctx.db, c.email, user.id))) throw new ConflictError('Email has already been taken');
  if (c.username !== undefined && (await userStore.usernameTaken(ctx.db, c.username, user.id))) throw new ConflictError('Username has already been taken');
  const errors = await changeErrors(ctx.db, user, c);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const patch = await patchFor(c);
  try {
    return await ctx.db.transaction(async (trx) => {
      if (c.email !== undefined && !same(c.email, user.email)) await swapPrimary(trx, user, c.email, !!c.skip_reconfirmation, patch);
      await userStore.update(trx, user.id, patch);
      const ns = user.namespaceId ? await namespaceStore.findById(trx, user.namespaceId) : null;
      if (ns && c.username !== undefined && c.username !== ns.path) await namespaceStore.renamePath(trx, ns, c.username);
      if (ns && c.name !== undefined) await namespaceStore.update(trx, ns.id, { name: c.name });
      if (c.extern_uid && c.provider) await identityStore.set(trx, user.id, c.provider, c.extern_uid);
      const updated = (await userStore.findById(trx, user.id)) as User;
      await publish.user(trx, 'updated', updated, ctx.publicUrl);
      return updated;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'users_email_lower_idx')) throw new ConflictError('Email has already been taken');
    if (isUniqueViolation(e, 'users_username_lower_idx')) throw new ConflictError('Username has already been taken');
    if (isUniqueViolation(e, 'namespaces_full_path_lower_idx')) throw new ValidationError({ username: ['has already been taken'] });
    throw e;
  }
}
