import type { Knex } from 'knex';
import type { Db } from '../sql';
import { Email, EmailRow, toEmail } from './email';

/** Reads and writes `emails`. */
export const emailStore = {
  /** A user's secondary addresses, oldest first (not yet paginated). */
  forUser(db: Db, userId: number): Knex.QueryBuilder {
    return db('emails').where('user_id', userId).orderBy('id');
  },

  /** One secondary address of a user, or null. */
  async find(db: Db, userId: number, id: number): Promise<Email | null> {
    const row = (await db('emails').where({ user_id: userId, id }).first()) as EmailRow | undefined;
    return row ? toEmail(row) : null;
  },

  /** A user's secondary address by value (case-insensitive), or null. */
  async findByAddress(db: Db, userId: number, email: string): Promise<Email | null> {
    const row = (await db('emails').where('user_id', userId).whereRaw('lower(email) = lower(?)', [email]).first()) as EmailRow | undefined;
    return row ? toEmail(row) : null;
  },

  /** Whether an address is anyone's, primary or secondary (case-insensitive), ignoring user `exceptUserId`. */
  async taken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
    const users = db('users').whereRaw('lower(email) = lower(?)', [email]);
    const emails = db('emails').whereRaw('lower(email) = lower(?)', [email]);
    if (exceptUserId) {
      users.whereNot('id', exceptUserId);
      emails.whereNot('user_id', exceptUserId);
    }
    const [u, e] = await Promise.all([users.first('id'), emails.first('id')]);
    return !!(u || e);
  },

  /** Inserts a secondary address and returns it. */
  async insert(db: Db, row: Pick<EmailRow, 'user_id' | 'email' | 'confirmed_at'>): Promise<Email> {
    const [r] = (await db('emails').insert(row).returning('*')) as EmailRow[];
    return toEmail(r);
  },

  /** Deletes one address. */
  async delete(db: Db, id: number): Promise<void> {
    await db('emails').where({ id }).delete();
  },
};
