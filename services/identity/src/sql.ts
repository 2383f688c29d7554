
/** Today's date in UTC, as Postgres sees it (token and membership expiry compare against this). */
export const TODAY_UTC = "(now() AT TIME ZONE 'utc')::date";

/** A membership row `m` that has not expired (GitLab: access ends on the `expires_at` date). */
export const ACTIVE_MEMBER = `(m.expires_at IS NULL OR m.expires_at > ${TODAY_UTC})`;

/**
 * Every way a user holds a level on a group (a derived table with `user_id`, `source_id`,
 * `access_level`, `expires_at`; alias it `m`): direct group memberships, and memberships of a
 * group the group is shared with (GitLab's group links; members of the invited group and of its
 * ancestors) at the lower of the member's level and the share's `group_access`, until the earlier
 * of both expiry dates (`LEAST` skips nulls). Shares do not chain. A `m.user_id = ?` outside is
 * pushed into both branches, so each reads the members index.
 */
export const NAMESPACE_ACCESS = `(SELECT m.user_id, m.source_id, m.access_level, m.expires_at FROM members m WHERE m.source_type = 'Namespace'
  UNION ALL
  SELECT im.user_id, l.shared_group_id, LEAST(im.access_level, l.group_access), LEAST(im.expires_at, l.expires_at)
  FROM members im JOIN namespaces ig ON ig.traversal_ids @> ARRAY[im.source_id] JOIN group_group_links l ON l.shared_with_group_id = ig.id
  WHERE im.source_type = 'Namespace')`;

/**
 * The highest unexpired group level of user `?` (a membership or a share) over the namespaces in
 * the array expression `traversal` (a namespace and its ancestors); 0 when none. Indexed lookups
 * on members and group links.
 */
export function groupLevelSql(traversal: string): string {
  return `COALESCE((SELECT max(m.access_level) FROM ${NAMESPACE_ACCESS} m WHERE m.user_id = ? AND m.source_id = ANY(${traversal}) AND ${ACTIVE_MEMBER}), 0)`;
}

/** A project share `l` (`project_group_links`) that has not expired. */
const ACTIVE_SHARE = `(l.expires_at IS NULL OR l.expires_at > ${TODAY_UTC})`;

/** User `?`'s direct unexpired level on the project whose id is the expression `projectId`; 0 when none. */
export function projectLevelSql(projectId: string): string {
  return `COALESCE((SELECT m.access_level FROM members m WHERE m.user_id = ? AND m.source_type = 'Project' AND m.source_id = ${projectId} AND ${ACTIVE_MEMBER}), 0)`;
}

/**
 * User `?`'s unexpired level on the project whose id is the expression `projectId` through a share
 * of it with a group they are a member of (or of whose ancestors they are), at the lower of both
 * levels (GitLab's project group links); 0 when none. Starts from the project's links.
 */
export function projectShareLevelSql(projectId: string): string {
  return `COALESCE((SELECT max(LEAST(m.access_level, l.group_access)) FROM project_group_links l JOIN namespaces ig ON ig.id = l.group_id
    JOIN members m ON m.source_type = 'Namespace' AND m.source_id = ANY(ig.traversal_ids) AND m.user_id = ?
    WHERE l.project_id = ${projectId} AND ${ACTIVE_SHARE} AND ${ACTIVE_MEMBER}), 0)`;
}

/**
 * Ids (a subquery) of the projects shared with a group user `?` is a member of (or of whose
 * ancestors they are), where the lower of both levels reaches `?`. Starts from the user's
 * memberships: one GIN lookup of `traversal_ids` each, then the links index.
 */
export const SHARED_PROJECT_IDS = `SELECT l.project_id FROM members m JOIN namespaces ig ON ig.traversal_ids @> ARRAY[m.source_id]
  JOIN project_group_links l ON l.group_id = ig.id
  WHERE m.user_id = ? AND m.source_type = 'Namespace' AND LEAST(m.access_level, l.group_access) >= ? AND ${ACTIVE_MEMBER} AND ${ACTIVE_SHARE}`;

/**
 * Ids (a subquery) of the namespaces in the subtrees of the groups user `?` reaches (a membership or
 * a share) unexpired at `?` or above: the groups themselves and every namespace below them. One GIN
 * lookup of `traversal_ids` per membership, so it costs what the user's memberships cost, not the table.
 */
export const MEMBER_SUBTREE_IDS = `SELECT sn.id FROM ${NAMESPACE_ACCESS} m JOIN namespaces sn ON sn.traversal_ids @> ARRAY[m.source_id]
  WHERE m.user_id = ? AND m.access_level >= ? AND ${ACTIVE_MEMBER}`;

/** User `?`'s unexpired project memberships (alias `m`) joined with the project (`p`) and its namespace (`pn`). */
const MEMBER_PROJECTS = `members m JOIN projects p ON p.id = m.source_id JOIN namespaces pn ON pn.id = p.namespace_id
  WHERE m.user_id = ? AND m.source_type = 'Project' AND m.access_level >= 10 AND ${ACTIVE_MEMBER}`;

/** User `?`'s unexpired group levels (memberships and shares; alias `m`, group `mg`) whose group or a subgroup holds a project. */
const MEMBER_GROUPS_WITH_PROJECTS = `${NAMESPACE_ACCESS} m JOIN namespaces mg ON mg.id = m.source_id
  WHERE m.user_id = ? AND m.access_level >= 10 AND ${ACTIVE_MEMBER}
  AND EXISTS (SELECT 1 FROM namespaces d JOIN projects dp ON dp.namespace_id = d.id WHERE d.traversal_ids @> ARRAY[mg.id])`;

/**
 * Whether user `?` (bound twice) can see a project inside the group whose id is the expression
 * `groupId` or inside one of its subgroups (GitLab's GroupPolicy `has_projects`): as a project
 * member, or as a member of a group at or below it that holds a project. Both start from the
 * user's memberships (the members index), never from the group's projects. Projects in a private
 * group are private (visibility never exceeds the namespace's), so membership is the only way in.
 */
export function readableThroughProjectsSql(groupId: string): string {
  return `(EXISTS (SELECT 1 FROM ${MEMBER_PROJECTS} AND pn.traversal_ids @> ARRAY[${groupId}])
    OR EXISTS (SELECT 1 FROM ${MEMBER_GROUPS_WITH_PROJECTS} AND mg.traversal_ids @> ARRAY[${groupId}]))`;
}

/**
 * Ids (an array expression) of the groups user `?` (bound twice) may read through projects: the
 * groups and ancestors of the projects they are a member of, and the ancestors of their member
 * groups that hold a project. The set-wise form of `readableThroughProjectsSql`, for lists.
 */
export const PROJECT_READABLE_GROUP_IDS = `ARRAY(SELECT unnest(pn.traversal_ids) FROM ${MEMBER_PROJECTS} AND pn.kind = 'group'
  UNION SELECT unnest(mg.traversal_ids) FROM ${MEMBER_GROUPS_WITH_PROJECTS})`;

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A `%term%` ILIKE pattern. */
export function contains(s: string): string {
  return `%${likeEscape(s)}%`;
}

/**
 * GitLab's similarity score of rows to a search term (`Gitlab::Database::SimilarityScore`): per
 * column an exact match scores 1, a prefix 0.5, a substring 0.3, times the column's weight; summed.
 */
export function similaritySql(search: string, columns: [string, number][]): { sql: string; bindings: string[] } {
  const terms = [search, `${likeEscape(search)}%`, contains(search)];
  const parts = columns.map(([c, w]) => `(CASE WHEN lower(${c}) = lower(?) THEN 1 WHEN ${c} ILIKE ? THEN 0.5 WHEN ${c} ILIKE ? THEN 0.3 ELSE 0 END) * ${w}`);
  return { sql: `(${parts.join(' + ')})`, bindings: columns.flatMap(() => terms) };
}

/** `YYYY-MM-DD` of a Postgres `date` (node-pg parses it as local midnight) or null. */
export function dateOnly(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
}

/** ISO 8601 with milliseconds and `Z` (GitLab's timestamp format) or null. */
export function iso(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

/** Today's date in UTC as `YYYY-MM-DD`. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A knex instance or a transaction: stores take this so callers choose the transaction. */
export type { Db } from '@anvil/db';
