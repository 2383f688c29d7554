import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** A milestone row (dates as `YYYY-MM-DD`). */
export interface MilestoneRow {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  due_date: string | null;
  start_date: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'm.id, m.iid, m.project_id, m.group_id, m.title, m.description, m.state, m.due_date::text AS due_date, m.start_date::text AS start_date, m.created_at, m.updated_at';

/** Milestones by id. */
export async function milestonesByIds(db: Db, ids: number[]): Promise<Map<number, MilestoneRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const r = await db.raw(`SELECT ${COLUMNS} FROM milestones m WHERE m.id = ANY(?)`, [unique]);
  return new Map((r.rows as MilestoneRow[]).map((m) => [m.id, m]));
}

function ownedBy(projectId: number | null, groupIds: number[]): { sql: string; bindings: Knex.Value[] } {
  const parts: string[] = [];
  const bindings: Knex.Value[] = [];
  if (projectId !== null) {
    parts.push('m.project_id = ?');
    bindings.push(projectId);
  }
  if (groupIds.length) {
    parts.push('m.group_id = ANY(?)');
    bindings.push(groupIds);
  }
  return { sql: parts.length ? `(${parts.join(' OR ')})` : 'false', bindings };
}

/** A milestone a project (or group) may use: its own or an ancestor group's, by id. */
export async function usableMilestone(db: Db, projectId: number | null, groupIds: number[], id: number): Promise<MilestoneRow | undefined> {
  const own = ownedBy(projectId, groupIds);
  const r = await db.raw(`SELECT ${COLUMNS} FROM milestones m WHERE m.id = ? AND ${own.sql}`, [id, ...own.bindings]);
  return r.rows[0];
}

/** A milestone a project may use, by title (its own preferred over a group's). */
export async function usableMilestoneByTitle(db: Db, projectId: number | null, groupIds: number[], title: string): Promise<MilestoneRow | undefined> {
  const own = ownedBy(projectId, groupIds);
  const r = await db.raw(`SELECT ${COLUMNS} FROM milestones m WHERE m.title = ? AND ${own.sql} ORDER BY m.project_id NULLS LAST LIMIT 1`, [title, ...own.bindings]);
  return r.rows[0];
}

/** Milestones of a project or group (with ancestors when `groupIds` has them), filtered. */
export function listMilestones(
  db: Db,
  owner: { projectId: number | null; groupIds: number[] },
  filter: { state?: string; title?: string; search?: string; iids?: number[] },
): Knex.QueryBuilder {
  const own = ownedBy(owner.projectId, owner.groupIds);
  const q = db.select(db.raw(COLUMNS)).from('milestones as m').whereRaw(own.sql, own.bindings);
  if (filter.state) q.where('m.state', filter.state);
  if (filter.title) q.where('m.title', filter.title);
  if (filter.search) q.where((w) => w.whereILike('m.title', `%${filter.search}%`).orWhereILike('m.description', `%${filter.search}%`));
  if (filter.iids?.length) q.whereIn('m.iid', filter.iids);
  return q.orderBy('m.due_date', 'asc').orderBy('m.id', 'asc');
}

/** One milestone by id, within a project or group. */
export async function findOwnMilestone(db: Db, owner: { projectId: number | null; groupId: number | null }, id: number): Promise<MilestoneRow | undefined> {
  const col = owner.projectId !== null ? 'm.project_id' : 'm.group_id';
  const r = await db.raw(`SELECT ${COLUMNS} FROM milestones m WHERE m.id = ? AND ${col} = ?`, [id, owner.projectId ?? owner.groupId]);
  return r.rows[0];
}
