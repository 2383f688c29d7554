import type { Knex } from 'knex';
import { prepared } from '@anvil/db';
import { Db, groupLevelSql, projectLevelSql, projectShareLevelSql } from '../sql';
import { Project, ProjectRow, toProject } from './project';
import type { ProjectSettings } from './project-settings';

/** The columns of `projects` (listed, never `*`: the reads are prepared statements). */
export const PROJECT_COLUMNS = ['id', 'name', 'path', 'namespace_id', 'description', 'visibility', 'archived', 'creator_id', 'default_branch', 'topics', 'star_count', 'forks_count', 'settings', 'created_at', 'updated_at', 'last_activity_at'];

const SHARED_WITH_JSON = `json_agg(json_build_object('group_id', g.id, 'group_name', g.name, 'group_full_path', g.full_path, 'group_access', l.group_access, 'expires_at', l.expires_at) ORDER BY l.id)
  FROM project_group_links l JOIN namespaces g ON g.id = l.group_id WHERE l.project_id = p.id`;
/** The groups the project `p` is shared with that user `?` (bound twice) may read (GitLab's `visible_group_links`), as JSON, or null. */
const SHARED_WITH_VISIBLE = `(SELECT ${SHARED_WITH_JSON} AND (g.visibility <> 'private' OR ${groupLevelSql('g.traversal_ids')} > 0 OR EXISTS (SELECT 1 FROM users u WHERE u.id = ? AND u.admin)))`;
/** The public groups the project `p` is shared with (what an anonymous caller sees), as JSON, or null. */
const SHARED_WITH_PUBLIC = `(SELECT ${SHARED_WITH_JSON} AND g.visibility = 'public')`;

/**
 * Projects joined with namespace, personal owner and `userId`'s direct and inherited levels, in
 * one query (the level subqueries use the members index; no per-row round trips), with the
 * groups each is shared with (the links index; null for a project shared with none).
 */
export function projectSelect(db: Db, userId: number | null): Knex.QueryBuilder {
  const levels = userId
    ? [
        db.raw(`${projectLevelSql('p.id')} AS project_access`, [userId]),
        db.raw(`${groupLevelSql('n.traversal_ids')} AS group_access`, [userId]),
        db.raw(`${projectShareLevelSql('p.id')} AS share_access`, [userId]),
        db.raw(`${SHARED_WITH_VISIBLE} AS shared_with`, [userId, userId]),
      ]
    : [db.raw('0 AS project_access'), db.raw('0 AS group_access'), db.raw('0 AS share_access'), db.raw(`${SHARED_WITH_PUBLIC} AS shared_with`)];
  // a LEFT JOIN, though every project has its namespace (foreign key): Postgres removes a left
  // join to a unique key that nothing reads, so list counts built from this query skip both joins
  return db('projects as p')
    .leftJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .leftJoin('users as o', 'o.id', 'n.owner_id')
    .select(
      ...PROJECT_COLUMNS.map((c) => `p.${c}`),
      'n.kind as ns_kind',
      'n.name as ns_name',
      'n.path as ns_path',
      'n.full_path as ns_full_path',
      'n.parent_id as ns_parent_id',
      'n.traversal_ids as ns_traversal_ids',
      'n.owner_id as ns_owner_id',
      'n.visibility as ns_visibility',
      db.raw(`(SELECT string_agg(a.name, ' / ' ORDER BY array_position(n.traversal_ids, a.id)) FROM namespaces a WHERE a.id = ANY(n.traversal_ids)) AS ns_full_name`),
      'o.username as owner_username',
      'o.name as owner_name',
      'o.state as owner_state',
      ...levels,
    );
}

/** Restricts a `projectSelect` to one project by numeric id or by full path (case-insensitive). */
export function whereRef(q: Knex.QueryBuilder, ref: number | { namespace: string; path: string }): Knex.QueryBuilder {
  if (typeof ref === 'number') return q.where('p.id', ref);
  return q.whereRaw('lower(n.full_path) = lower(?) AND lower(p.path) = lower(?)', [ref.namespace, ref.path]);
}

/** The columns a new project row takes. */
export interface NewProjectRow {
  name: string;
  path: string;
  namespace_id: number;
  description: string | null;
  visibility: string;
  creator_id: number;
  default_branch: string | null;
  topics: string[];
  settings: Partial<ProjectSettings>;
}

/** Reads and writes `projects`. */
export const projectStore = {
  /** One project by id or full path with `userId`'s levels, or null (one prepared statement). */
  async find(db: Db, ref: number | { namespace: string; path: string }, userId: number | null): Promise<Project | null> {
    const row = (await prepared(whereRef(projectSelect(db, userId), ref).first(), 'identity')) as ProjectRow | undefined;
    return row ? toProject(row) : null;
  },

  /** The oldest project directly in a namespace, or null. */
  async firstIn(db: Db, namespaceId: number): Promise<Project | null> {
    const row = (await projectSelect(db, null).where('p.namespace_id', namespaceId).orderBy('p.id').first()) as ProjectRow | undefined;
    return row ? toProject(row) : null;
  },

  /** Inserts a project and returns its id. */
  async insert(db: Db, row: NewProjectRow): Promise<number> {
    const [r] = await db('projects')
      .insert({ ...row, settings: JSON.stringify(row.settings) })
      .returning('id');
    return (r as { id: number }).id;
  },

  /** Updates columns of a project. */
  async update(db: Db, id: number, patch: Partial<Omit<NewProjectRow, 'settings'>> & { settings?: ProjectSettings; archived?: boolean }): Promise<void> {
    const { settings, ...rest } = patch;
    await db('projects')
      .where({ id })
      .update({ ...rest, ...(settings ? { settings: JSON.stringify(settings) } : {}), updated_at: db.fn.now(), last_activity_at: db.fn.now() });
  },

  /** Whether a project in `namespaceId` uses `path` (case-insensitive) or `name`, ignoring `exceptId`. */
  async taken(db: Db, namespaceId: number, name: string | null, path: string | null, exceptId?: number): Promise<{ name: boolean; path: boolean }> {
    if (name === null && path === null) return { name: false, path: false };
    const rows = (await db('projects')
      .where('namespace_id', namespaceId)
      .modify((q) => exceptId && q.whereNot('id', exceptId))
      .where((q) => {
        if (name !== null) q.orWhere('name', name);
        if (path !== null) q.orWhereRaw('lower(path) = lower(?)', [path]);
      })
      .select('name', 'path')) as { name: string; path: string }[];
    return {
      name: name !== null && rows.some((r) => r.name === name),
      path: path !== null && rows.some((r) => r.path.toLowerCase() === path.toLowerCase()),
    };
  },

  /** Whether a project's full path `fullPath` exists (case-insensitive). */
  async fullPathTaken(db: Db, fullPath: string): Promise<boolean> {
    const i = fullPath.lastIndexOf('/');
    if (i < 0) return false;
    const row = await db('projects as p')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .whereRaw('lower(n.full_path) = lower(?) AND lower(p.path) = lower(?)', [fullPath.slice(0, i), fullPath.slice(i + 1)])
      .first('p.id');
    return !!row;
  },

  /** Deletes projects by id. */
  async delete(db: Db, ids: number[]): Promise<void> {
    if (ids.length) await db('projects').whereIn('id', ids).delete();
  },
};
