import { Actor, canRead } from '@anvil/auth';
import { HttpError, NotFoundError } from '@anvil/http';
import type { IdentityContext } from '../deps';
import { groupLinkEventData, publish } from '../events/publish';
import { Level } from '../policy';
import { GroupLink, groupLinkStore, InvitedGroup } from './group-link-store';
import type { Group } from './group-store';

/** What `POST /groups/:id/share` asks for. */
export interface ShareInput {
  groupAccess: number;
  expiresAt: string | null;
}

const mayAdminMembers = (actor: Actor, group: Group) => actor.admin || group.accessLevel >= Level.OWNER;

const eventData = (group: Group, link: GroupLink) => groupLinkEventData({ ...link, sharedGroupTraversalIds: group.traversalIds });

/**
 * Shares `group` with `invited` (GitLab's `Groups::GroupLinks::CreateService`): only an Owner or an
 * administrator may, anyone else gets 404 `Not Found`; an existing share of the pair is 409. Writes
 * `identity.group_link.created` in the same transaction.
 */
export async function shareGroup(ctx: IdentityContext, actor: Actor, group: Group, invited: Group, input: ShareInput): Promise<GroupLink> {
  if (!mayAdminMembers(actor, group)) throw new HttpError(404, { message: 'Not Found' });
  return ctx.db.transaction(async (trx) => {
    const link = await groupLinkStore.insert(trx, { sharedGroupId: group.id, sharedWithGroupId: invited.id, groupAccess: input.groupAccess, expiresAt: input.expiresAt });
    if (!link) throw new HttpError(409, { message: 'Shared group The group has already been shared with this group' });
    await publish.groupLink(trx, 'created', eventData(group, link));
    return link;
  });
}

/**
 * Removes the share of `group` with group `sharedWithGroupId`: 404 `Group Link Not Found` when
 * there is none. As GitLab's API, a caller who is not an Owner gets the same 204 but nothing
 * changes. Writes `identity.group_link.deleted`.
 */
export async function unshareGroup(ctx: IdentityContext, actor: Actor, group: Group, sharedWithGroupId: number): Promise<void> {
  const link = await groupLinkStore.find(ctx.db, group.id, sharedWithGroupId);
  if (!link) throw new NotFoundError('Group Link');
  if (!mayAdminMembers(actor, group)) return;
  await ctx.db.transaction(async (trx) => {
    await groupLinkStore.delete(trx, link.id);
    await publish.groupLink(trx, 'deleted', eventData(group, link));
  });
}

/**
 * The groups `group` is shared with that `actor` may read (GitLab's `shared_with_group_links_visible_to_user`);
 * no query for a group `find` saw unshared.
 */
export async function visibleInvitedGroups(ctx: IdentityContext, actor: Actor | null, group: Group): Promise<InvitedGroup[]> {
  if (!group.shared) return [];
  const links = await groupLinkStore.invitedGroups(ctx.db, group.id, actor?.id ?? null);
  return links.filter((l) => canRead({ visibility: l.group.visibility, access_level: l.group.accessLevel }, actor));
}
