import type { Knex } from 'knex';
import { prepared } from '@anvil/db';
import { Db, groupLevelSql, readableThroughProjectsSql } from '../sql';
import { Namespace, NamespaceRow, toNamespace } from '../namespaces/namespace';
import { namespaceSelect } from '../namespaces/namespace-store';

/** A group with the caller's effective level (the highest over the group and its ancestors). */
export interface Group extends Namespace {
  kind: 'group';
  accessLevel: number;
  /** The caller sees a project inside this private group (may read it at level 0); false unless looked up. */
  readable: boolean;
  /** The group is shared with at least one group (read by `find` only; false otherwise). */
  shared: boolean;
  /** Some project is shared with the group (read by `find` only; false otherwise). */
  hasSharedProjects: boolean;
}

/**
 * Groups (alias `namespaces`) with `userId`'s effective level as `access_level`, in one query. The
 * kind is a literal, not a bound value, so a prepared statement's generic plan still matches the
 * indexes on groups alone (`WHERE kind = 'group'`).
 */
export function groupSelect(db: Db, userId: number | null): Knex.QueryBuilder {
  const level = userId ? db.raw(`${groupLevelSql('namespaces.traversal_ids')} AS access_level`, [userId]) : db.raw('0 AS access_level');
  return namespaceSelect(db).select(level).whereRaw("namespaces.kind = 'group'");
}

/**
 * `readable` of user `?` (bound twice) on the group alias `namespaces`: only a private group is
 * asked (public and internal ones are readable anyway), and only then are the EXISTS evaluated.
 */
export function readableColumn(alias: string): string {
  return `CASE WHEN ${alias}.visibility = 'private' THEN ${readableThroughProjectsSql(`${alias}.id`)} ELSE false END AS readable`;
}

/** Maps a group row (with `access_level`, and `readable` when selected) to a Group. */
export function toGroup(row: NamespaceRow & { access_level?: number; readable?: boolean; shared?: boolean; has_shared_projects?: boolean }): Group {
  return { ...toNamespace(row), kind: 'group', accessLevel: Number(row.access_level ?? 0), readable: row.readable === true, shared: row.shared === true, hasSharedProjects: row.has_shared_projects === true };
}

/** Reads groups. */
export const groupStore = {
  /** One group by id or full path (case-insensitive) with `userId`'s effective level, `readable`, `shared` and `hasSharedProjects`, or null (one prepared statement). */
  async find(db: Db, ref: number | string, userId: number | null): Promise<Group | null> {
    const q = groupSelect(db, userId).select(
      db.raw('EXISTS (SELECT 1 FROM group_group_links gl WHERE gl.shared_group_id = namespaces.id) AS shared'),
      db.raw('EXISTS (SELECT 1 FROM project_group_links pl WHERE pl.group_id = namespaces.id) AS has_shared_projects'),
    );
    if (userId) q.select(db.raw(readableColumn('namespaces'), [userId, userId]));
    if (typeof ref === 'number') q.where('namespaces.id', ref);
    else q.whereRaw('lower(namespaces.full_path) = lower(?)', [ref]);
    const row = (await prepared(q.first(), 'identity')) as (NamespaceRow & { access_level: number }) | undefined;
    return row ? toGroup(row) : null;
  },
};
