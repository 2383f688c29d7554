import { prepared } from '@anvil/db';
import type { Db } from '../sql';
import { dateOnly } from '../sql';
import { groupSelect, toGroup, type Group } from './group-store';
import type { NamespaceRow } from '../namespaces/namespace';

/** A group share: `sharedGroupId` shared with the members of `sharedWithGroupId`. */
export interface GroupLink {
  id: number;
  sharedGroupId: number;
  sharedWithGroupId: number;
  groupAccess: number;
  /** `YYYY-MM-DD` or null (never expires). */
  expiresAt: string | null;
}

/** A row of `group_group_links`. */
export interface GroupLinkRow {
  id: number;
  shared_group_id: number;
  shared_with_group_id: number;
  group_access: number;
  expires_at: Date | string | null;
}

/** Maps a `group_group_links` row to a GroupLink. */
export function toGroupLink(r: GroupLinkRow): GroupLink {
  return { id: r.id, sharedGroupId: r.shared_group_id, sharedWithGroupId: r.shared_with_group_id, groupAccess: r.group_access, expiresAt: dateOnly(r.expires_at) };
}

/** An invited group with the share's level and expiry (what `shared_with_groups` lists). */
export interface InvitedGroup {
  group: Group;
  groupAccess: number;
  expiresAt: string | null;
}

/** Reads and writes `group_group_links`. */
export const groupLinkStore = {
  /** The share of `sharedGroupId` with `sharedWithGroupId`, or null. */
  async find(db: Db, sharedGroupId: number, sharedWithGroupId: number): Promise<GroupLink | null> {
    const row = (await db('group_group_links').where({ shared_group_id: sharedGroupId, shared_with_group_id: sharedWithGroupId }).first()) as GroupLinkRow | undefined;
    return row ? toGroupLink(row) : null;
  },

  /** Inserts a share; null when the pair is already shared (nothing written). */
  async insert(db: Db, link: Omit<GroupLink, 'id'>): Promise<GroupLink | null> {
    const rows = (await db('group_group_links')
      .insert({ shared_group_id: link.sharedGroupId, shared_with_group_id: link.sharedWithGroupId, group_access: link.groupAccess, expires_at: link.expiresAt })
      .onConflict(['shared_group_id', 'shared_with_group_id'])
      .ignore()
      .returning('*')) as GroupLinkRow[];
    return rows.length ? toGroupLink(rows[0]) : null;
  },

  /** Deletes one share. */
  async delete(db: Db, id: number): Promise<void> {
    await db('group_group_links').where({ id }).delete();
  },

  /**
   * Deletes every share from or to the given groups and returns them with the shared group's
   * traversal ids (for their deleted events).
   */
  async deleteForGroups(db: Db, groupIds: number[]): Promise<(GroupLink & { sharedGroupTraversalIds: number[] })[]> {
    if (!groupIds.length) return [];
    const rows = (await db('group_group_links as l')
      .join('namespaces as s', 's.id', 'l.shared_group_id')
      .where((w) => w.whereIn('l.shared_group_id', groupIds).orWhereIn('l.shared_with_group_id', groupIds))
      .select('l.*', 's.traversal_ids')
      .orderBy('l.id')) as (GroupLinkRow & { traversal_ids: number[] })[];
    await db('group_group_links').whereIn('id', rows.map((r) => r.id)).delete();
    return rows.map((r) => ({ ...toGroupLink(r), sharedGroupTraversalIds: r.traversal_ids.map(Number) }));
  },

  /** The groups `sharedGroupId` is shared with (expired shares included), with `userId`'s level on each, by link id. */
  async invitedGroups(db: Db, sharedGroupId: number, userId: number | null): Promise<InvitedGroup[]> {
    const q = groupSelect(db, userId)
      .join('group_group_links as l', 'l.shared_with_group_id', 'namespaces.id')
      .where('l.shared_group_id', sharedGroupId)
      .select('l.group_access as link_access', 'l.expires_at as link_expires_at')
      .orderBy('l.id');
    const rows = (await prepared(q, 'identity')) as (NamespaceRow & { access_level: number; link_access: number; link_expires_at: Date | null })[];
    return rows.map((r) => ({ group: toGroup(r), groupAccess: r.link_access, expiresAt: dateOnly(r.link_expires_at) }));
  },
};
