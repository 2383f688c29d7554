import type { Knex } from 'knex';
import { nextInternalId } from '../issues/issue-store';

type Db = Knex | Knex.Transaction;

/** A (thin) epic: group-level, with the fields issues and the promote action need. */
export interface EpicRow {
  id: number;
  iid: number;
  group_id: number;
  title: string;
  description: string | null;
  author_id: number;
  state: string;
  confidential: boolean;
  created_at: Date;
  updated_at: Date;
}

/** An iteration (top tier, thin). `state`: 1 upcoming, 2 current, 3 closed. */
export interface IterationRow {
  id: number;
  iid: number;
  sequence: number;
  group_id: number;
  title: string | null;
  description: string | null;
  state: number;
  start_date: string;
  due_date: string;
  created_at: Date;
  updated_at: Date;
}

/** Creates an epic in a group with the group's next iid. */
export async function createEpic(db: Db, values: { group_id: number; title: string; description: string | null; author_id: number; confidential?: boolean }): Promise<EpicRow> {
  const iid = await nextInternalId(db, 'group', values.group_id, 'epics');
  const [row] = await db('epics').insert({ ...values, iid }).returning('*');
  return row;
}

/** Epics by id. */
export async function epicsByIds(db: Db, ids: number[]): Promise<Map<number, EpicRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows: EpicRow[] = await db('epics').whereIn('id', unique);
  return new Map(rows.map((e) => [e.id, e]));
}

/** An epic of one of `groupIds` by id. */
export async function epicInGroups(db: Db, groupIds: number[], id: number): Promise<EpicRow | undefined> {
  if (!groupIds.length) return undefined;
  return db('epics').where({ id }).whereIn('group_id', groupIds).first();
}

/** An epic of a group by iid. */
export async function epicByIid(db: Db, groupId: number, iid: number): Promise<EpicRow | undefined> {
  return db('epics').where({ group_id: groupId, iid }).first();
}

/** Creates an iteration in a group (iterations have no REST create in GitLab; domain use). */
export async function createIteration(db: Db, values: { group_id: number; title: string | null; start_date: string; due_date: string; state?: number; description?: string | null }): Promise<IterationRow> {
  const iid = await nextInternalId(db, 'group', values.group_id, 'iterations');
  const [{ id }] = await db('iterations').insert({ ...values, iid, sequence: iid }).returning('id');
  return (await iterationsByIds(db, [id])).get(id) as IterationRow;
}

/** Iterations by id (dates as `YYYY-MM-DD`). */
export async function iterationsByIds(db: Db, ids: number[]): Promise<Map<number, IterationRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows: IterationRow[] = await db('iterations')
    .select('*', db.raw('start_date::text AS start_date'), db.raw('due_date::text AS due_date'))
    .whereIn('id', unique);
  return new Map(rows.map((e) => [e.id, e]));
}

/** Iterations of a group and its descendants: the list GitLab's `GET /groups/:id/iterations` gives. */
export function iterationsOfGroups(db: Db, groupIds: number[]): Knex.QueryBuilder {
  return db('iterations')
    .select('*', db.raw('start_date::text AS start_date'), db.raw('due_date::text AS due_date'))
    .whereIn('group_id', groupIds)
    .orderBy('due_date', 'asc')
    .orderBy('id', 'asc');
}
