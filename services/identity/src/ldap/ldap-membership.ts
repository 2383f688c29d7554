import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import type { Member } from '../members/member';
import { MemberRow, toMember } from '../members/member';
import { memberStore } from '../members/member-store';
import { Level } from '../policy';
import type { LdapDirectory } from './ldap-directory';
import { ldapSyncStore } from './ldap-sync-store';

/** The group being synced and its ancestors (whose memberships set a floor on its levels). */
export interface SyncTarget {
  groupId: number;
  ancestorIds: number[];
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
 * Makes the group's direct members match `desired` (login name → level), as GitLab's
 * `Sync::Group#update_permissions`: only members who are directory users are managed (others are
 * never touched); they are updated to their level (never below an inherited one) or removed when
 * in no linked group, except the last Owner; directory users who are not members yet are added.
 * Users are matched to directory entries by username = the directory's uid.
 */
export async function applyMembership(ctx: IdentityContext, target: SyncTarget, desired: Map<string, number>, directory: LdapDirectory): Promise<void> {
  const members = ((await memberStore.direct(ctx.db, 'Namespace', target.groupId)) as MemberRow[]).map(toMember);
  const managed = await directory.existingUids(members.map((m) => m.user.username));
  const users = await ldapSyncStore.usersByUsername(ctx.db, [...desired.keys()]);
  const floor = await ldapSyncStore.ancestorLevels(ctx.db, target.ancestorIds, [...users.map((u) => u.id), ...members.map((m) => m.user.id)]);
  const levelOf = (userId: number, level: number) => Math.max(level, floor.get(userId) ?? 0);
  const memberIds = new Set(members.map((m) => m.user.id));
  for (const m of members) {
    const name = m.user.username.toLowerCase();
    if (!managed.has(name)) continue;
    const level = desired.get(name);
    if (level === undefined) await remove(ctx, m);
    else if (levelOf(m.user.id, level) !== m.accessLevel) await update(ctx, m, levelOf(m.user.id, level));
  }
  for (const u of users) {
    if (!memberIds.has(u.id)) await add(ctx, target.groupId, u.id, levelOf(u.id, desired.get(u.username) as number));
  }
}
