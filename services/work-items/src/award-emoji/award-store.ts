import type { Knex } from 'knex';
import { HttpError } from '@anvil/http';
import { isUniqueViolation } from '@anvil/db';
import { camelize, Camelized, RowTimestamps } from '../db/rows';
import { AwardEmojiEvents, emitAwardEvent } from '../events/work-item-events';

type Db = Knex | Knex.Transaction;

/** An `award_emoji` row. */
export interface AwardRow extends RowTimestamps {
  id: number;
  name: string;
  user_id: number;
  awardable_type: string;
  awardable_id: number;
}

/** An emoji a user awarded to an awardable (today: an issue). */
export type Award = Camelized<AwardRow>;

/** The domain award of a row. */
export const awardFromRow: (r: AwardRow) => Award = camelize;

/** Emoji names that count as up and down votes on issues. */
export const UPVOTE = 'thumbsup';
export const DOWNVOTE = 'thumbsdown';

/** A thin emoji-name check (lower-case word characters, as GitLab's names are). */
export function validEmojiName(name: string): boolean {
  return /^[a-z0-9_+-]{1,64}$/.test(name);
}

/**
 * Awards `name` by a user to an issue, keeping the issue's up/down vote counters in the same
 * transaction, and announces `work-items.award_emoji.created`. The same award twice is GitLab's `404 Award Emoji Name has already been taken Not Found`.
 */
export async function awardIssue(db: Knex, userId: number, issue: { id: number; projectId: number }, name: string): Promise<Award> {
  try {
    return await db.transaction(async (trx) => {
      const [row] = await trx('award_emoji').insert({ name, user_id: userId, awardable_type: 'Issue', awardable_id: issue.id }).returning('*');
      await bumpVotes(trx, issue.id, name, 1);
      const award = awardFromRow(row);
      await emitAwardEvent(trx, AwardEmojiEvents.created, award, issue.projectId);
      return award;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new HttpError(404, { message: '404 Award Emoji Name has already been taken Not Found' });
    throw e;
  }
}

/** Adjusts `upvotes`/`downvotes` of an issue for an award added (+1) or removed (-1). */
export async function bumpVotes(db: Db, issueId: number, name: string, delta: number): Promise<void> {
  const column = name === UPVOTE ? 'upvotes' : name === DOWNVOTE ? 'downvotes' : null;
  if (column) await db('issues').where({ id: issueId }).increment(column, delta);
}

/** Awards on one issue (`AwardRow`s, for pagination), oldest first. */
export function issueAwards(db: Db, issueId: number): Knex.QueryBuilder {
  return db('award_emoji').where({ awardable_type: 'Issue', awardable_id: issueId }).orderBy('id');
}
