import type { Actor } from '@anvil/auth';
import type { IdentityContext } from '../deps';
import { isNumericRef } from '../namespaces/paths';
import { toActor } from './user';
import { userStore } from './user-store';

/** A user by numeric id or username (case-insensitive), as the gateway's `sudo` needs; or null. */
export async function lookupUser(ctx: IdentityContext, ref: string): Promise<Actor | null> {
  const user = isNumericRef(ref) ? await userStore.findById(ctx.db, Number(ref)) : await userStore.findByUsername(ctx.db, ref);
  return user ? toActor(user) : null;
}
