import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { isUniqueViolation } from '@anvil/db';
import { HttpError, RecordNotFoundError, UnauthorizedError } from '@anvil/http';
import { AwardEmojiEvents, awardPayload, emitAwardEvent } from '../events/award-emoji-events';
import { markTargetTodosDone } from '../todos/todo-store';
import { Award, awardFromRow, awardsOf, bumpVotes, deleteAward, findAwardOn, insertAward } from './award-store';
import type { Awardable } from './awardables';
import { normalizeEmojiName } from './emoji-names';

/** What writing an award needs of its awardable. */
export type AwardTarget = Pick<Awardable, 'type' | 'id' | 'projectId' | 'todoTarget' | 'votesTable'>;

/** GitLab's `not_found!("Award Emoji <reason>")`: `404 Award Emoji Not Found`, or with the reason inside. */
export function awardNotFound(reason?: string): HttpError {
  return new HttpError(404, { message: `404 Award Emoji ${reason ? `${reason} ` : ''}Not Found` });
}

/** Lets only callers who may read the awardable see its awards (`can_read_awardable?`). */
export function assertReadable(a: Awardable): void {
  if (!a.readable) throw awardNotFound();
}

/** The award `id` of the awardable, or GitLab's `404 Not found`. */
export async function findAward(db: Knex, a: Awardable, id: number): Promise<Award> {
  const award = await findAwardOn(db, a, id);
  if (!award) throw new RecordNotFoundError();
  return award;
}

/**
 * Awards the emoji `input` (an alias or colon form is stored under GitLab's name) as `actor`
 * (`AwardEmojis::AddService`): keeps the thumbs counters, marks the actor's pending to-dos on the
 * issue or merge request done and writes the `awarded` event, in one transaction. Refusals are
 * GitLab's `404 Award Emoji … Not Found` bodies.
 */
export async function addAward(db: Knex, a: Awardable, actor: Actor | null, input: string): Promise<Award> {
  if (!actor || !a.readable || !a.canAward) throw awardNotFound();
  if (!a.emojiAwardable) throw awardNotFound('Awardable cannot be awarded emoji');
  const name = normalizeEmojiName(input);
  if (!name) throw awardNotFound('Name is not a valid emoji name');
  try {
    return await db.transaction((trx) => awardIn(trx, a, actor.id, name));
  } catch (e) {
    if (isUniqueViolation(e)) throw awardNotFound('Name has already been taken');
    throw e;
  }
}

/** An award of the (normalised) `name` in `trx`, with its counters, to-dos and `awarded` event. */
async function awardIn(trx: Knex.Transaction, a: AwardTarget, actorId: number, name: string): Promise<Award> {
  const award = await insertAward(trx, a, actorId, name);
  if (a.votesTable) await bumpVotes(trx, a.votesTable, a.id, name, 1);
  if (a.todoTarget) await markTargetTodosDone(trx, actorId, a.todoTarget.type, a.todoTarget.id);
  await emitAwardEvent(trx, AwardEmojiEvents.awarded, awardPayload(award, a.projectId, actorId));
  return award;
}

/** Removes `award` in `trx`, with its counter and `removed` event. */
async function unawardIn(trx: Knex.Transaction, a: AwardTarget, award: Award, actorId: number): Promise<void> {
  if (!(await deleteAward(trx, award.id))) throw new RecordNotFoundError();
  if (a.votesTable) await bumpVotes(trx, a.votesTable, a.id, award.name, -1);
  await emitAwardEvent(trx, AwardEmojiEvents.removed, awardPayload(award, a.projectId, actorId));
}

/**
 * GitLab's `toggle_award` (the `/award` quick action) inside the caller's transaction: removes the
 * actor's award of `name` (already normalised) when there is one, else awards it as `addAward` does.
 */
export async function toggleAwardIn(trx: Knex.Transaction, a: AwardTarget, actorId: number, name: string): Promise<void> {
  const existing = await awardsOf(trx, a).where({ user_id: actorId, name }).first();
  if (existing) await unawardIn(trx, a, awardFromRow(existing), actorId);
  else await awardIn(trx, a, actorId, name);
}

/** Only the awarder or an administrator removes an award; anyone else is `401 Unauthorized`. */
export function assertRemovable(award: Award, actor: Actor | null): asserts actor is Actor {
  if (!actor || (award.userId !== actor.id && !actor.admin)) throw new UnauthorizedError();
}

/** Removes an award (`AwardEmojis::DestroyService`), its thumbs count and writes the `removed` event. */
export async function removeAward(db: Knex, a: Awardable, award: Award, actor: Actor): Promise<void> {
  await db.transaction((trx) => unawardIn(trx, a, award, actor.id));
}
