import type { Knex } from 'knex';
import type { Actor } from '@anvil/auth';
import { ValidationError } from '@anvil/http';
import { ensureActor } from '../read-model/store';
import { emitEpicCreated } from '../events/work-item-events';
import { createEpic, Epic } from './epic-store';

/** What a client gives to create an epic. */
export interface EpicAttributes {
  title: string;
  description?: string;
  confidential?: boolean;
}

/**
 * Creates an epic in a group for `actor` (recorded in the read model first when identity's event
 * has not arrived) and announces `work-items.epic.created`; a blank title is GitLab's `400 {"message": {"title": ["can't be blank"]}}`.
 */
export async function createGroupEpic(db: Knex, actor: Actor, base: string, groupId: number, attrs: EpicAttributes): Promise<Epic> {
  if (!attrs.title.trim()) throw new ValidationError({ title: ["can't be blank"] });
  await ensureActor(db, actor, base);
  return db.transaction(async (trx) => {
    const epic = await createEpic(trx, { groupId, title: attrs.title, description: attrs.description ?? null, authorId: actor.id, confidential: !!attrs.confidential });
    await emitEpicCreated(trx, epic, actor.id);
    return epic;
  });
}
