import type { Actor } from '@anvil/auth';
import type { IdentityContext } from '../deps';
import { isNumericRef } from '../namespaces/paths';
import { hashPassword, verifyPassword } from './passwords';
import { toActor } from './user';
import { userStore } from './user-store';

let dummyDigest: Promise<string> | undefined;

/**
 * Username or e-mail and password → the user, when they match and the user is active. An unknown
 * login still costs one scrypt, so response time does not reveal which logins exist.
 */
export async function authenticate(ctx: IdentityContext, login: string, password: string): Promise<Actor | null> {
  const user = await userStore.findByLogin(ctx.db, login);
  if (!user) {
    await verifyPassword(password, await (dummyDigest ??= hashPassword('not-a-password')));
    return null;
  }
  if (!(await verifyPassword(password, user.passwordDigest)) || user.state !== 'active') return null;
  return toActor(user);
}

/** A user by numeric id or username (case-insensitive), as the gateway's `sudo` needs; or null. */
export async function lookupUser(ctx: IdentityContext, ref: string): Promise<Actor | null> {
  const user = isNumericRef(ref) ? await userStore.findById(ctx.db, Number(ref)) : await userStore.findByUsername(ctx.db, ref);
  return user ? toActor(user) : null;
}
