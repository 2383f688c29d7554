import { ConflictError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { deleteNamespaceTree } from '../groups/delete-tree';
import { MemberRow, toMember } from '../members/member';
import { memberSelect } from '../members/member-store';
import { Db, TODAY_UTC } from '../sql';
import type { User } from './user';
import { userStore } from './user-store';

const active = (alias: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > ${TODAY_UTC})`;

/**
 * Sets a user's state and writes `identity.user.updated` in the same transaction (the gateway
 * drops cached credentials on every `identity.user.*` event, so a blocked user's tokens stop at
 * once; they work again after unblocking, as in GitLab). Returns false when the state was already
 * that, writing nothing.
 */
export async function setUserState(ctx: IdentityContext, user: User, state: User['state']): Promise<boolean> {
  if (user.state === state) return false;
  await ctx.db.transaction(async (trx) => {
    await userStore.update(trx, user.id, { state });
    await publish.user(trx, 'updated', { ...user, state }, ctx.publicUrl);
  });
  return true;
}

/** Groups whose only unexpired direct Owner is `userId`, shallowest first. */
async function soleOwnedGroupIds(db: Db, userId: number): Promise<number[]> {
  const rows = (await db('members as m')
    .join('namespaces as n', 'n.id', 'm.source_id')
    .where({ 'm.user_id': userId, 'm.source_type': 'Namespace', 'm.access_level': 50 })
    .whereRaw(active('m'))
    .whereNotExists((q) =>
      q.select(db.raw('1')).from('members as o').whereRaw(`o.source_type = 'Namespace' AND o.source_id = m.source_id AND o.access_level = 50 AND o.user_id <> m.user_id AND ${active('o')}`),
    )
    .orderByRaw('cardinality(n.traversal_ids), n.id')
    .select('n.id')) as { id: number }[];
  return rows.map((r) => r.id);
}

/** Deletes every membership of the user, writing `identity.membership.deleted` for each. */
async function deleteMemberships(trx: Db, userId: number): Promise<void> {
  const members = ((await memberSelect(trx).where('m.user_id', userId).orderBy('m.id')) as MemberRow[]).map(toMember);
  await trx('members').where('user_id', userId).delete();
  for (const m of members) await publish.membership(trx, 'deleted', m);
}

/** Deletes the user's tokens, writing `identity.token.revoked` for each one that still worked. */
async function deleteTokens(trx: Db, userId: number): Promise<void> {
  const rows = (await trx('personal_access_tokens').where('user_id', userId).delete().returning(['id', 'revoked'])) as { id: number; revoked: boolean }[];
  for (const t of rows.sort((a, b) => a.id - b.id)) if (!t.revoked) await publish.tokenRevoked(trx, { id: t.id, userId });
}

/**
 * Deletes a user with their personal namespace and its projects, memberships and tokens, in one
 * transaction, writing the deleted/revoked events of each and `identity.user.deleted` last.
 * A sole Owner of a group is refused (409, GitLab's sentence) unless `hardDelete`, which deletes
 * those groups too.
 */
export async function deleteUser(ctx: IdentityContext, user: User, hardDelete: boolean): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const solo = await soleOwnedGroupIds(trx, user.id);
    if (solo.length && !hardDelete) throw new ConflictError('User cannot be removed while is the sole-owner of a group');
    for (const id of solo) if (await trx('namespaces').where({ id }).first('id')) await deleteNamespaceTree(trx, ctx.publicUrl, id);
    if (user.namespaceId) await deleteNamespaceTree(trx, ctx.publicUrl, user.namespaceId);
    await deleteMemberships(trx, user.id);
    await deleteTokens(trx, user.id);
    await trx('users').where({ id: user.id }).delete();
    await publish.user(trx, 'deleted', user, ctx.publicUrl);
  });
}
