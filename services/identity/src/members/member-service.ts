import type { Actor } from '@anvil/auth';
import { ConflictError, ForbiddenError, NotFoundError, RecordNotFoundError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import type { IdentityContext } from '../deps';
import { publish } from '../events/publish';
import { Level } from '../policy';
import { userStore } from '../users/user-store';
import { Member, SourceType } from './member';
import { memberStore } from './member-store';

/** A project or group whose members are managed, with the caller's effective level on it. */
export interface MemberSource {
  type: SourceType;
  id: number;
  /** The caller's effective level (admins count as Owner). */
  callerLevel: number;
}

/** What a membership is set to. */
export interface MemberInput {
  access_level: number;
  expires_at?: string | null;
}

/**
 * Only Owners may grant, change or remove the Owner role, on projects as on groups (GitLab's
 * `manage_owners`); Maintainers manage the other roles of a project.
 */
function guardOwnerRole(source: MemberSource, levels: number[]): void {
  if (levels.some((l) => l >= Level.OWNER) && source.callerLevel < Level.OWNER) throw new ForbiddenError();
}

/** A group keeps at least one Owner: changing or removing the last one is refused (403). */
async function guardLastOwner(ctx: IdentityContext, source: MemberSource, member: Member, newLevel?: number): Promise<void> {
  if (source.type !== 'Namespace' || member.accessLevel < Level.OWNER || (newLevel ?? 0) >= Level.OWNER) return;
  if ((await memberStore.ownerCount(ctx.db, source.id)) <= 1) throw new ForbiddenError();
}

/**
 * Adds a user to a project or group and writes `identity.membership.created`. Unknown user →
 * 404 User; already a direct member → 409 `Member already exists`.
 */
export async function addMember(ctx: IdentityContext, actor: Actor, source: MemberSource, userId: number, input: MemberInput): Promise<Member> {
  guardOwnerRole(source, [input.access_level]);
  if (!(await userStore.findById(ctx.db, userId))) throw new NotFoundError('User');
  if (await memberStore.find(ctx.db, source.type, source.id, userId)) throw new ConflictError('Member already exists');
  try {
    return await ctx.db.transaction(async (trx) => {
      const id = await memberStore.insert(trx, { source_type: source.type, source_id: source.id, user_id: userId, access_level: input.access_level, expires_at: input.expires_at ?? null, created_by_id: actor.id });
      const member = (await memberStore.findById(trx, id)) as Member;
      await publish.membership(trx, 'created', member);
      return member;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'members_source_user_idx')) throw new ConflictError('Member already exists');
    throw e;
  }
}

/** Changes a direct membership and writes `identity.membership.updated`; 404 Member when absent. */
export async function updateMember(ctx: IdentityContext, source: MemberSource, userId: number, input: MemberInput): Promise<Member> {
  const member = await memberStore.find(ctx.db, source.type, source.id, userId);
  if (!member) throw new RecordNotFoundError();
  guardOwnerRole(source, [member.accessLevel, input.access_level]);
  await guardLastOwner(ctx, source, member, input.access_level);
  return ctx.db.transaction(async (trx) => {
    await memberStore.update(trx, member.id, { access_level: input.access_level, expires_at: input.expires_at });
    const updated = (await memberStore.findById(trx, member.id)) as Member;
    await publish.membership(trx, 'updated', updated);
    return updated;
  });
}

/**
 * Removes a direct membership and writes `identity.membership.deleted`. Members may remove
 * themselves; others need `minLevel` on the source. 404 Member when absent.
 */
export async function removeMember(ctx: IdentityContext, actor: Actor, source: MemberSource, userId: number, minLevel: number): Promise<void> {
  const member = await memberStore.find(ctx.db, source.type, source.id, userId);
  const self = member?.user.id === actor.id;
  if (!self && source.callerLevel < minLevel) throw new ForbiddenError();
  if (!member) throw new RecordNotFoundError();
  if (!self) guardOwnerRole(source, [member.accessLevel]);
  await guardLastOwner(ctx, source, member);
  await ctx.db.transaction(async (trx) => {
    await memberStore.delete(trx, member.id);
    await publish.membership(trx, 'deleted', member);
  });
}
