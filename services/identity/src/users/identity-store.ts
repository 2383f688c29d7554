import { ValidationError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import { normalizeDn } from '../ldap/dn';
import type { Db } from '../sql';

/** An external identity of a user (`extern_uid` at `provider`). */
export interface Identity {
  provider: string;
  externUid: string;
  samlProviderId: number | null;
}

interface IdentityRow {
  user_id: number;
  provider: string;
  extern_uid: string;
  saml_provider_id: number | null;
}

const INVALID = { identities: ['is invalid'] };

/** GitLab's `Identity.normalize_uid`: an LDAP provider's `extern_uid` is kept as a normalised DN (a non-DN as given). */
export function normalizeUid(provider: string, uid: string): string {
  return provider.startsWith('ldap') ? (normalizeDn(uid) ?? uid) : uid;
}

/** Reads and writes `identities`. */
export const identityStore = {
  /** The identities of each of `userIds` (oldest first); users without any map to []. */
  async forUsers(db: Db, userIds: number[]): Promise<Map<number, Identity[]>> {
    const out = new Map<number, Identity[]>(userIds.map((id) => [id, []]));
    if (!userIds.length) return out;
    const rows = (await db('identities').whereIn('user_id', userIds).orderBy('id')) as IdentityRow[];
    for (const r of rows) out.get(r.user_id)?.push({ provider: r.provider, externUid: r.extern_uid, samlProviderId: r.saml_provider_id });
    return out;
  },

  /**
   * Sets the user's identity at `provider` (one per provider): updates its `extern_uid` (normalised) or adds it.
   * An `extern_uid` another user holds at that provider is GitLab's `identities is invalid` (400).
   */
  async set(db: Db, userId: number, provider: string, uid: string): Promise<void> {
    const externUid = normalizeUid(provider, uid);
    try {
      await db.transaction(async (trx) => {
        const n = await trx('identities').where({ user_id: userId, provider }).update({ extern_uid: externUid, updated_at: trx.fn.now() });
        if (!n) await trx('identities').insert({ user_id: userId, provider, extern_uid: externUid });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new ValidationError(INVALID);
      throw e;
    }
  },

  /** Deletes the user's identity at `provider`; false when there was none. */
  async delete(db: Db, userId: number, provider: string): Promise<boolean> {
    return (await db('identities').where({ user_id: userId, provider }).delete()) > 0;
  },
};

/** `users` with their identities loaded (one query for the lot). */
export async function withIdentities<T extends { id: number; identities?: Identity[] }>(db: Db, users: T[]): Promise<T[]> {
  const byUser = await identityStore.forUsers(db, users.map((u) => u.id));
  return users.map((u) => ({ ...u, identities: byUser.get(u.id) ?? [] }));
}
