import type { Knex } from 'knex';
import { camelize, Camelized, RowTimestamps } from '../db/rows';
import { DOWNVOTE, UPVOTE } from './emoji-names';

type Db = Knex | Knex.Transaction;

/** An `award_emoji` row. */
export interface AwardRow extends RowTimestamps {
  id: number;
  name: string;
  user_id: number;
  awardable_type: string;
  awardable_id: number;
}

/** An emoji a user awarded to an awardable. */
export type Award = Camelized<AwardRow>;

/** The domain award of a row. */
export const awardFromRow: (r: AwardRow) => Award = camelize;

/** An awardable as the `award_emoji` table keys it. */
export interface AwardableKey {
  type: string;
  id: number;
}

/** Whether `id` fits the `integer` columns ids and iids are stored in (any other names nothing, as in GitLab). */
export function storableId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
}

/** Awards on one awardable (`AwardRow`s, for pagination), oldest first. */
export function awardsOf(db: Db, a: AwardableKey): Knex.QueryBuilder {
  return db('award_emoji').where({ awardable_type: a.type, awardable_id: a.id }).orderBy('id');
}

/** The award `id` when it is on this awardable. */
export async function findAwardOn(db: Db, a: AwardableKey, id: number): Promise<Award | undefined> {
  if (!storableId(id)) return undefined;
  const row: AwardRow | undefined = await awardsOf(db, a).where({ id }).first();
  return row && awardFromRow(row);
}

/** Inserts an award (a duplicate raises Postgres' unique violation). */
export async function insertAward(db: Db, a: AwardableKey, userId: number, name: string): Promise<Award> {
  const [row] = await db('award_emoji').insert({ name, user_id: userId, awardable_type: a.type, awardable_id: a.id }).returning('*');
  return awardFromRow(row);
}

/** Deletes an award; true when it was still there. */
export async function deleteAward(db: Db, id: number): Promise<boolean> {
  return (await db('award_emoji').where({ id }).delete()) > 0;
}

/** Adjusts the `upvotes`/`downvotes` counter of an issue or merge request for a thumb added (+1) or removed (-1). */
export async function bumpVotes(db: Db, table: 'issues' | 'merge_requests', id: number, name: string, delta: number): Promise<void> {
  const column = name === UPVOTE ? 'upvotes' : name === DOWNVOTE ? 'downvotes' : null;
  if (column) await db(table).where({ id }).increment(column, delta);
}
