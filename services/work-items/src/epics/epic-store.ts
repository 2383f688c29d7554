import type { Knex } from 'knex';
import { camelizeDated, Dated } from '../db/rows';
import { nextInternalId } from '../issues/issue-store';

type Db = Knex | Knex.Transaction;

/** An `epics` row (timestamps as read, or as JSON text when built by `json_agg`). */
export interface EpicRow {
  id: number;
  iid: number;
  group_id: number;
  title: string;
  description: string | null;
  author_id: number;
  state: string;
  confidential: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A (thin) epic: group-level, with the fields issues and the promote action need. */
export type Epic = Dated<EpicRow>;

/** An `iterations` row (dates as `YYYY-MM-DD`). `state`: 1 upcoming, 2 current, 3 closed. */
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
  created_at: Date | string;
  updated_at: Date | string;
}

/** An iteration (top tier, thin). `state`: 1 upcoming, 2 current, 3 closed; dates as `YYYY-MM-DD`. */
export type Iteration = Dated<IterationRow>;

/** What a new epic is made of. */
export interface NewEpic {
  groupId: number;
  title: string;
  description: string | null;
  authorId: number;
  confidential: boolean;
}

/** The domain epic of a row. */
export const epicFromRow: (r: EpicRow) => Epic = camelizeDated;

/** The domain iteration of a row. */
export const iterationFromRow: (r: IterationRow) => Iteration = camelizeDated;

/** Creates an epic in a group with the group's next iid. */
export async function createEpic(db: Db, e: NewEpic): Promise<Epic> {
  const iid = await nextInternalId(db, 'group', e.groupId, 'epics');
  const [row] = await db('epics')
    .insert({ group_id: e.groupId, title: e.title, description: e.description, author_id: e.authorId, confidential: e.confidential, iid })
    .returning('*');
  return epicFromRow(row);
}

/** Epics by id. */
export async function epicsByIds(db: Db, ids: number[]): Promise<Map<number, Epic>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows: EpicRow[] = await db('epics').whereIn('id', unique);
  return new Map(rows.map((e) => [e.id, epicFromRow(e)]));
}

/** An epic of one of `groupIds` by id. */
export async function epicInGroups(db: Db, groupIds: number[], id: number): Promise<Epic | undefined> {
  if (!groupIds.length) return undefined;
  const row: EpicRow | undefined = await db('epics').where({ id }).whereIn('group_id', groupIds).first();
  return row && epicFromRow(row);
}

/** An epic of a group by iid. */
export async function epicByIid(db: Db, groupId: number, iid: number): Promise<Epic | undefined> {
  const row: EpicRow | undefined = await db('epics').where({ group_id: groupId, iid }).first();
  return row && epicFromRow(row);
}

/** An iteration of one of `groupIds` by id. */
export async function iterationInGroups(db: Db, groupIds: number[], id: number): Promise<Iteration | undefined> {
  const iteration = (await iterationsByIds(db, [id])).get(id);
  return iteration && groupIds.includes(iteration.groupId) ? iteration : undefined;
}

/** Creates an iteration in a group (iterations have no REST create in GitLab; domain use). */
export async function createIteration(db: Db, values: { group_id: number; title: string | null; start_date: string; due_date: string; state?: number; description?: string | null }): Promise<Iteration> {
  const iid = await nextInternalId(db, 'group', values.group_id, 'iterations');
  const [{ id }] = await db('iterations').insert({ ...values, iid, sequence: iid }).returning('id');
  return (await iterationsByIds(db, [id])).get(id) as Iteration;
}

/** Iterations by id (dates as `YYYY-MM-DD`). */
export async function iterationsByIds(db: Db, ids: number[]): Promise<Map<number, Iteration>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows: IterationRow[] = await db('iterations')
    .select('*', db.raw('start_date::text AS start_date'), db.raw('due_date::text AS due_date'))
    .whereIn('id', unique);
  return new Map(rows.map((e) => [e.id, iterationFromRow(e)]));
}

/** Iterations of a group and its descendants (`IterationRow`s, for a finder): the list GitLab's `GET /groups/:id/iterations` gives. */
export function iterationsOfGroups(db: Db, groupIds: number[]): Knex.QueryBuilder {
  return db('iterations')
    .select('*', db.raw('start_date::text AS start_date'), db.raw('due_date::text AS due_date'))
    .whereIn('group_id', groupIds)
    .orderBy('due_date', 'asc')
    .orderBy('id', 'asc');
}
