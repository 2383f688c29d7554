import type { Knex } from 'knex';
import type { Actor, ProjectScope } from '@anvil/auth';
import type { UserEventV1 } from '@anvil/events';
import { queryPrepared } from '@anvil/db';

type Db = Knex | Knex.Transaction;

/** A user as the read model holds it (what UserBasic needs): identity's user event without `admin`. */
export type UserRow = Omit<UserEventV1, 'admin'>;

/** A project as the read model holds it. */
export interface ProjectRow {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  namespace_id: number;
  namespace_kind: string;
  group_id: number | null;
  group_traversal_ids: number[];
  visibility: string;
  archived: boolean;
}

/** A group as the read model holds it. */
export interface GroupRow {
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: string;
  traversal_ids: number[];
}

const USER_COLUMNS = ['id', 'username', 'name', 'state', 'avatar_url', 'web_url'];
const PROJECT_COLUMNS = ['id', 'name', 'path', 'path_with_namespace', 'namespace_id', 'namespace_kind', 'group_id', 'group_traversal_ids', 'visibility', 'archived'];
const GROUP_COLUMNS = ['id', 'name', 'path', 'full_path', 'parent_id', 'visibility', 'traversal_ids'];

/** Users by id (deleted ones included: issues keep showing their author). */
export async function usersByIds(db: Db, ids: number[]): Promise<Map<number, UserRow>> {
  const unique = [...new Set(ids.filter((x) => x != null))];
  if (!unique.length) return new Map();
  const rows: UserRow[] = await db('users').select(USER_COLUMNS).whereIn('id', unique);
  return new Map(rows.map((r) => [r.id, r]));
}

/** A live user by username, case-insensitively. */
export async function userByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db('users').select(USER_COLUMNS).whereRaw('lower(username) = lower(?)', [username]).where({ deleted: false }).first();
}

/** Live users by id: which of `ids` exist. */
export async function existingUserIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows: { id: number }[] = await db('users').select('id').whereIn('id', ids).where({ deleted: false });
  return new Set(rows.map((r) => r.id));
}

/** Live projects by id (a prepared statement when not in a transaction: it runs on every request). */
export async function projectsByIds(db: Db, ids: number[]): Promise<Map<number, ProjectRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const sql = { sql: `SELECT ${PROJECT_COLUMNS.join(', ')} FROM projects WHERE id = ANY($1::int[]) AND NOT deleted`, bindings: [unique] };
  const rows: ProjectRow[] = 'isTransaction' in db && db.isTransaction ? (await db.raw(sql.sql.replace('$1', '?'), [unique])).rows : await queryPrepared(db as Knex, sql);
  return new Map(rows.map((r) => [r.id, r]));
}

/** A live project by full path, case-insensitively. */
export async function projectByPath(db: Db, fullPath: string): Promise<ProjectRow | undefined> {
  return db('projects').select(PROJECT_COLUMNS).whereRaw('lower(path_with_namespace) = lower(?)', [fullPath]).where({ deleted: false }).first();
}

/** A live group by id. */
export async function groupById(db: Db, id: number): Promise<GroupRow | undefined> {
  return db('groups').select(GROUP_COLUMNS).where({ id, deleted: false }).first();
}

/** Live groups by id. */
export async function groupsByIds(db: Db, ids: number[]): Promise<Map<number, GroupRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows: GroupRow[] = await db('groups').select(GROUP_COLUMNS).whereIn('id', unique).where({ deleted: false });
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Makes sure the acting user has a row, from the gateway's context, when identity's event has
 * not arrived yet. Never overwrites a row the event stream wrote (it stays authoritative).
 */
export async function ensureActor(db: Db, actor: Actor, base: string): Promise<void> {
  await db.raw(
    `INSERT INTO users (id, username, name, state, admin, web_url) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    [actor.id, actor.username, actor.name, actor.state, actor.admin, `${base.replace(/\/$/, '')}/${actor.username}`],
  );
}

/** Makes sure the context's project has a row (same rule as `ensureActor`). */
export async function ensureProject(db: Db, scope: ProjectScope): Promise<void> {
  const path = scope.path_with_namespace.split('/').pop() ?? scope.path_with_namespace;
  await db.raw(
    `INSERT INTO projects (id, name, path, path_with_namespace, namespace_id, namespace_kind, group_id, group_traversal_ids, visibility)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    [scope.id, path, path, scope.path_with_namespace, scope.namespace_id, scope.group_id ? 'group' : 'user', scope.group_id,
      scope.group_id ? [scope.group_id] : [], scope.visibility],
  );
}
