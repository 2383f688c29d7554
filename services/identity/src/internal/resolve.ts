import type { GroupScope, ProjectScope } from '@anvil/auth';
import { prepared } from '@anvil/db';
import { splitFullPath } from '../namespaces/paths';
import { readableColumn } from '../groups/group-store';
import { ACTIVE_MEMBER, Db, groupLevelSql, MEMBER_SUBTREE_IDS, projectLevelSql, projectShareLevelSql, SHARED_PROJECT_IDS } from '../sql';

/**
 * The gateway's hot-path lookups. Each is one indexed query (a prepared statement): by primary
 * key or by the case-insensitive full-path indexes, with the caller's levels as correlated
 * subqueries on the members index.
 */

/** A project by id or full path with `userId`'s effective level (0 for anonymous), or null. */
export async function resolveProject(db: Db, ref: number | string, userId: number | null): Promise<ProjectScope | null> {
  const uid = userId ?? 0;
  const q = db('projects as p')
    .join('namespaces as n', 'n.id', 'p.namespace_id')
    .select('p.id', 'p.path', 'p.visibility', 'p.namespace_id', 'n.kind', 'n.full_path', db.raw(`GREATEST(${projectLevelSql('p.id')}, ${groupLevelSql('n.traversal_ids')}, ${projectShareLevelSql('p.id')}) AS access_level`, [uid, uid, uid]));
  if (typeof ref === 'number') q.where('p.id', ref);
  else {
    const { namespace, path } = splitFullPath(ref);
    if (!namespace) return null;
    q.whereRaw('lower(n.full_path) = lower(?) AND lower(p.path) = lower(?)', [namespace, path]);
  }
  const row = await prepared(q.first(), 'identity');
  if (!row) return null;
  return {
    id: row.id,
    path_with_namespace: `${row.full_path}/${row.path}`,
    namespace_id: row.namespace_id,
    group_id: row.kind === 'group' ? row.namespace_id : null,
    visibility: row.visibility,
    access_level: Number(row.access_level),
  };
}

/**
 * A group by id or full path with `userId`'s effective level (0 for anonymous), or null. A signed-in
 * caller who may read a private group only through a project inside it gets `readable: true` with
 * level 0 (what `canRead` honours); the key is absent otherwise.
 */
export async function resolveGroup(db: Db, ref: number | string, userId: number | null): Promise<GroupScope | null> {
  const q = db('namespaces as n')
    .where('n.kind', 'group')
    .select('n.id', 'n.full_path', 'n.parent_id', 'n.visibility', db.raw(`${groupLevelSql('n.traversal_ids')} AS access_level`, [userId ?? 0]));
  if (userId) q.select(db.raw(readableColumn('n'), [userId, userId]));
  if (typeof ref === 'number') q.where('n.id', ref);
  else q.whereRaw('lower(n.full_path) = lower(?)', [ref]);
  const row = await prepared(q.first(), 'identity');
  if (!row) return null;
  const level = Number(row.access_level);
  const scope: GroupScope = { id: row.id, full_path: row.full_path, parent_id: row.parent_id, visibility: row.visibility, access_level: level };
  if (row.readable === true && level < 10) scope.readable = true;
  return scope;
}

/**
 * Ids of the projects `userId` may read: every project for an administrator; else those where
 * the user's level (direct, inherited or through a share) is at least `minLevel`, plus, when no level is asked,
 * public projects and (signed in) internal ones. One statement.
 */
export async function readableProjectIds(db: Db, userId: number | null, minLevel?: number): Promise<number[]> {
  if (!userId) {
    if (minLevel) return [];
    return ((await db('projects').where('visibility', 'public').orderBy('id').pluck('id')) as number[]).map(Number);
  }
  const level = minLevel ?? 10;
  const parts = [
    'SELECT p.id FROM projects p WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = ? AND u.admin)',
    `SELECT m.source_id FROM members m WHERE m.user_id = ? AND m.source_type = 'Project' AND m.access_level >= ? AND ${ACTIVE_MEMBER}`,
    `SELECT p.id FROM projects p WHERE p.namespace_id IN (${MEMBER_SUBTREE_IDS})`,
    SHARED_PROJECT_IDS,
  ];
  const bindings: unknown[] = [userId, userId, level, userId, level, userId, level];
  if (!minLevel) parts.push(`SELECT p.id FROM projects p WHERE p.visibility IN ('public', 'internal')`);
  const result = await db.raw(`SELECT id FROM (${parts.join(' UNION ')}) ids ORDER BY id`, bindings as never[]);
  return (result.rows as { id: number }[]).map((r) => Number(r.id));
}
