import type { Knex } from 'knex';
import type { Owner } from '../access/owner-scope';
import { camelizeDated, Dated } from '../db/rows';

type Db = Knex | Knex.Transaction;

/** A `milestones` row as `COLUMNS` selects it (dates as `YYYY-MM-DD`; timestamps as read, or as JSON text). */
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
  created_at: Date | string;
  updated_at: Date | string;
}

/** A milestone of a project (`projectId`) or a group (`groupId`); dates as `YYYY-MM-DD`. */
export type Milestone = Dated<MilestoneRow>;

/** The domain milestone of a row (also of one built by `json_build_object` with the same keys). */
export const milestoneFromRow: (r: MilestoneRow) => Milestone = camelizeDated;

async function selectOne(db: Db, where: string, bindings: Knex.Value[]): Promise<Milestone | undefined> {
  const r = await db.raw(`SELECT ${COLUMNS} FROM milestones m WHERE ${where}`, bindings);
  return r.rows[0] && milestoneFromRow(r.rows[0]);
}

const COLUMNS = 'm.id, m.iid, m.project_id, m.group_id, m.title, m.description, m.state, m.due_date::text AS due_date, m.start_date::text AS start_date, m.created_at, m.updated_at';

/** Milestones by id. */
export async function milestonesByIds(db: Db, ids: number[]): Promise<Map<number, Milestone>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const r = await db.raw(`SELECT ${COLUMNS} FROM milestones m WHERE m.id = ANY(?)`, [unique]);
  return new Map((r.rows as MilestoneRow[]).map((m) => [m.id, milestoneFromRow(m)]));
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
export async function usableMilestone(db: Db, projectId: number | null, groupIds: number[], id: number): Promise<Milestone | undefined> {
  const own = ownedBy(projectId, groupIds);
  return selectOne(db, `m.id = ? AND ${own.sql}`, [id, ...own.bindings]);
}

/** A milestone a project may use, by title (its own preferred over a group's). */
export async function usableMilestoneByTitle(db: Db, projectId: number | null, groupIds: number[], title: string): Promise<Milestone | undefined> {
  const own = ownedBy(projectId, groupIds);
  return selectOne(db, `m.title = ? AND ${own.sql} ORDER BY m.project_id NULLS LAST LIMIT 1`, [title, ...own.bindings]);
}

/** The `milestones` rows of a project and/or of groups, as `COLUMNS` selects them (for finders). */
export function milestonesOwnedBy(db: Db, projectId: number | null, groupIds: number[]): Knex.QueryBuilder {
  const own = ownedBy(projectId, groupIds);
  return db.select(db.raw(COLUMNS)).from('milestones as m').whereRaw(own.sql, own.bindings);
}

/** One milestone by id, within a project or group. */
export async function findOwnMilestone(db: Db, owner: Owner, id: number): Promise<Milestone | undefined> {
  const col = owner.projectId !== null ? 'm.project_id' : 'm.group_id';
  return selectOne(db, `m.id = ? AND ${col} = ?`, [id, owner.projectId ?? owner.groupId]);
}

/** Inserts a milestone with the given columns and returns its id; a duplicate title raises the unique violation. */
export async function insertMilestone(db: Db, columns: Record<string, unknown>): Promise<number> {
  const [{ id }] = await db('milestones').insert(columns).returning('id');
  return id;
}

/** Updates a milestone's columns and `updated_at`; a duplicate title raises the unique violation. */
export async function updateMilestoneColumns(db: Db, id: number, columns: Record<string, unknown>): Promise<void> {
  await db('milestones').where({ id }).update({ ...columns, updated_at: new Date() });
}

/** Deletes a milestone; its issues keep existing without one (foreign key sets null). */
export async function deleteMilestoneById(db: Db, id: number): Promise<void> {
  await db('milestones').where({ id }).delete();
}
