import { emit, EmailEvents, EmailEventV1 } from '@anvil/events';
import type { Email } from '../emails/email';
import { Db, iso } from '../sql';
import { PRODUCER } from './publish';

/** The contract data of an e-mail event. */
export function emailEventData(e: Email): EmailEventV1 {
  return { id: e.id, user_id: e.userId, email: e.email, confirmed_at: iso(e.confirmedAt) };
}

/** Writes `identity.email.created|deleted` to the outbox in the caller's transaction. */
export function publishEmail(trx: Db, verb: keyof typeof EmailEvents, e: Email) {
  return emit(trx, PRODUCER, EmailEvents[verb], emailEventData(e));
}
