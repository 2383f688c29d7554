import { ConflictError, ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { namespacePathErrors } from '../namespaces/paths';
import { namespaceStore } from '../namespaces/namespace-store';
import { EMAIL_FORMAT } from '../emails/email';
import { emailStore } from '../emails/email-store';
import { identityStore } from './identity-store';
import { hashPassword, randomPassword } from './passwords';
import { User } from './user';
import { NewUserRow, userStore } from './user-store';

/** The profile and account attributes `POST /users` and `PUT /users/:id` both take (absent: unset or unchanged). */
export interface UserAttributes {
  admin?: boolean;
  external?: boolean;
  can_create_group?: boolean;
  projects_limit?: number;
  private_profile?: boolean | null;
  bio?: string;
  location?: string;
  public_email?: string;
  website_url?: string;
  organization?: string;
  job_title?: string;
  pronouns?: string;
  linkedin?: string;
  twitter?: string;
  discord?: string;
  github?: string;
  note?: string;
  commit_email?: string;
  theme_id?: number;
  color_scheme_id?: number;
  extern_uid?: string;
  provider?: string;
}

/** Attributes of a new user (as `POST /users` declares them). */
export interface NewUser extends UserAttributes {
  username: string;
  email: string;
  name: string;
  password?: string;
  reset_password?: boolean;
  force_random_password?: boolean;
  skip_confirmation?: boolean;
}

const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

/** GitLab's model validation of a new user; `{}` when valid. */
export function userFieldErrors(u: NewUser): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, msg: string) => (errors[field] ??= []).push(msg);
  if (!EMAIL_FORMAT.test(u.email)) add('email', 'is invalid');
  for (const m of namespacePathErrors(u.username, true)) add('username', m);
  if (!u.name.trim()) add('name', "can't be blank");
  if (u.name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  if (u.password !== undefined && !u.reset_password && !u.force_random_password) {
    if (u.password.length < PASSWORD_MIN) add('password', `is too short (minimum is ${PASSWORD_MIN} characters)`);
    if (u.password.length > PASSWORD_MAX) add('password', `is too long (maximum is ${PASSWORD_MAX} characters)`);
  }
  if (u.projects_limit !== undefined && u.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0');
  if (u.public_email && u.public_email !== u.email) add('public_email', 'is not an email you own');
  if (u.commit_email && u.commit_email !== u.email && u.commit_email !== '_private') add('commit_email', 'is not an email you own');
  return errors;
}

async function rowFor(u: NewUser, createdBy: number | null): Promise<NewUserRow> {
  const random = u.force_random_password || u.reset_password || u.password === undefined;
  return {
    username: u.username,
    email: u.email,
    name: u.name,
    admin: u.admin ?? false,
    external: u.external ?? false,
    can_create_group: u.can_create_group ?? true,
    projects_limit: u.projects_limit ?? 100000,
    private_profile: u.private_profile ?? false,
    password_digest: await hashPassword(random ? randomPassword() : (u.password as string)),
    bio: u.bio ?? '',
    location: u.location ?? '',
    public_email: u.public_email || null,
    website_url: u.website_url ?? '',
    organization: u.organization ?? '',
    job_title: u.job_title ?? '',
    pronouns: u.pronouns ?? null,
    linkedin: u.linkedin ?? '',
    twitter: u.twitter ?? '',
    discord: u.discord ?? '',
    github: u.github ?? '',
    note: u.note ?? null,
    commit_email: u.commit_email ?? null,
    theme_id: u.theme_id ?? 3,
    color_scheme_id: u.color_scheme_id ?? 1,
    created_by_id: createdBy,
    confirmed_at: u.skip_confirmation ? new Date() : null,
  };
}

/**
 * Creates a user, its personal namespace and its `extern_uid`/`provider` identity and writes
 * `identity.user.created`, in one transaction. An e-mail anyone holds (primary or secondary) or a
 * taken username is a 409 with GitLab's sentence (e-mail checked first); other invalid attributes
 * are a 400 with field errors.
 */
export async function createUser(ctx: IdentityContext, input: NewUser, createdBy: number | null): Promise<User> {
  if (await emailStore.taken(ctx.db, input.email)) throw new ConflictError('Email has already been taken');
  if (await userStore.usernameTaken(ctx.db, input.username)) throw new ConflictError('Username has already been taken');
  const errors = userFieldErrors(input);
  if (!errors.username && (await namespaceStore.fullPathTaken(ctx.db, input.username))) errors.username = ['has already been taken'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const row = await rowFor(input, createdBy);
  try {
    return await ctx.db.transaction(async (trx) => {
      const id = await userStore.insert(trx, row);
      await namespaceStore.insert(trx, { kind: 'user', name: input.name, path: input.username, visibility: 'public', owner_id: id }, null);
      if (input.extern_uid && input.provider) await identityStore.set(trx, id, input.provider, input.extern_uid);
      const user = (await userStore.findById(trx, id)) as User;
      await publish.user(trx, 'created', user, ctx.publicUrl);
      return user;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'users_email_lower_idx')) throw new ConflictError('Email has already been taken');
    if (isUniqueViolation(e, 'users_username_lower_idx')) throw new ConflictError('Username has already been taken');
    if (isUniqueViolation(e, 'namespaces_full_path_lower_idx')) throw new ValidationError({ username: ['has already been taken'] });
    throw e;
  }
}
