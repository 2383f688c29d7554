import type { Knex } from 'knex';
import { AwardEmojiEvents, emit, type AwardEmojiEventV1 } from '@anvil/events';
import type { Award } from '../award-emoji/award-store';
import { timestamps } from '../entities/timestamps';
import { PRODUCER } from './issue-events';

export { AwardEmojiEvents, type AwardEmojiEventV1 } from '@anvil/events';

/** The event payload of an award, acted on by `actorId`. */
export function awardPayload(award: Award, projectId: number, actorId: number): AwardEmojiEventV1 {
  return {
    id: award.id,
    name: award.name,
    user_id: award.userId,
    awardable_type: award.awardableType as AwardEmojiEventV1['awardable_type'],
    awardable_id: award.awardableId,
    project_id: projectId,
    ...timestamps(award),
    actor_id: actorId,
  };
}

/** Writes an award event to the outbox in the caller's transaction. */
export async function emitAwardEvent(trx: Knex.Transaction, type: (typeof AwardEmojiEvents)[keyof typeof AwardEmojiEvents], data: AwardEmojiEventV1): Promise<void> {
  await emit(trx, PRODUCER, type, data);
}
