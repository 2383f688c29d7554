import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import type { Member } from '../members/member';
import { MemberRow, toMember } from '../members/member';
import { memberStore } from '../members/member-store';
import { Level } from '../policy';
import { ldapSyncStore } from './ldap-sync-store';

/** The group being synced, its ancestors (whose memberships set a floor on its levels) and the provider synced. */
export interface SyncTarget {
  groupId: number;
  ancestorIds: number[];
  provider: string;
}

async function isLastOwner(ctx: IdentityContext, m: Member): Promise<boolean> {
  return m.accessLevel >= Level.OWNER && (await memberStore.ownerCount(ctx.db, m.sourceId)) <= 1;
}

async function update(ctx: IdentityContext, m: Member, level: number): Promise<void> {
  if (level < Level.OWNER && (await isLastOwner(ctx, m))) return;
  await ctx.db.transaction(async (trx) => {
    await memberStore.update(trx, m.id, { access_level: level });
    await publish.membership(trx, 'updated', { ...m, accessLevel: level });
  });
}

async function remove(ctx: IdentityContext, m: Member): Promise<void> {
  if (await isLastOwner(ctx, m)) return;
  await ctx.db.transaction(async (trx) => {
    await memberStore.delete(trx, m.id);
    await publish.membership(trx, 'deleted', m);
  });
}

async function add(ctx: IdentityContext, groupId: number, userId: number, level: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await memberStore.insert(trx, { source_type: 'Namespace', source_id: groupId, user_id: userId, access_level: level, expires_at: null, created_by_id: null });
    await publish.membership(trx, 'created', { sourceType: 'Namespace', sourceId: groupId, accessLevel: level, expiresAt: null, user: { id: userId } });
  });
}

/**
 * Makes the group's direct members match `desired` (normalised DN → level), as GitLab's
 * `Sync::Group#update_permissions`: only members with an identity at the provider are managed
 * (others are never touched); they are updated to their level (never below an inherited one) or
 * removed when in no linked group, except the last Owner; users whose identity's `extern_uid` is
 * one of the DNs (case-insensitively) and who are not members yet are added.
 */
export async function applyMembership(ctx: IdentityContext, target: SyncTarget, desired: Map<string, number>): Promise<void> {
  const members = ((await memberStore.direct(ctx.db, 'Namespace', target.groupId)) as MemberRow[]).map(toMember);
  const managed = await ldapSyncStore.dnsOfUsers(ctx.db, target.provider, members.map((m) => m.user.id));
  const users = await ldapSyncStore.usersByDn(ctx.db, target.provider, [...desired.keys()]);
  const floor = await ldapSyncStore.ancestorLevels(ctx.db, target.ancestorIds, [...users.map((u) => u.id), ...members.map((m) => m.user.id)]);
  const levelOf = (userId: number, level: number) => Math.max(level, floor.get(userId) ?? 0);
  const memberIds = new Set(members.map((m) => m.user.id));
  for (const m of members) {
    const dn = managed.get(m.user.id);
    if (dn === undefined) continue;
    const level = desired.get(dn);
    if (level === undefined) await remove(ctx, m);
    else if (levelOf(m.user.id, level) !== m.accessLevel) await update(ctx, m, levelOf(m.user.id, level));
  }
  for (const u of users) {
    if (!memberIds.has(u.id)) await add(ctx, target.groupId, u.id, levelOf(u.id, desired.get(u.dn) as number));
  }
}
