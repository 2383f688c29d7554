import type { Email } from '../emails/email';
import { iso } from '../sql';

/** GitLab's `Email` entity: id, email, confirmed_at. */
export function toEmailEntity(e: Email) {
  return { id: e.id, email: e.email, confirmed_at: iso(e.confirmedAt) };
}
