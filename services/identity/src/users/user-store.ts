import type { Knex } from 'knex';
import type { Db } from '../sql';
import { toUser, User, UserRow } from './user';

/** Every users column plus the personal namespace id. */
export function userSelect(db: Db): Knex.QueryBuilder {
  return db('users')
    .select('users.*', 'un.id as namespace_id')
    .leftJoin('namespaces as un', function () {
      this.on('un.owner_id', '=', 'users.id').andOnVal('un.kind', '=', 'user');
    });
}

/** The columns a new user row takes. */
export type NewUserRow = Partial<Omit<UserRow, 'id' | 'created_at' | 'updated_at'>> & Pick<UserRow, 'username' | 'email' | 'name'>;

/** Reads and writes `users`. */
export const userStore = {
  /** A user by id, or null. */
  async findById(db: Db, id: number): Promise<User | null> {
    const row = await userSelect(db).where('users.id', id).first();
    return row ? toUser(row) : null;
  },

  /** Users by ids (any order; missing ids are skipped). */
  async findByIds(db: Db, ids: number[]): Promise<User[]> {
    if (!ids.length) return [];
    const rows = (await userSelect(db).whereIn('users.id', ids)) as UserRow[];
    return rows.map(toUser);
  },

  /** A user by username, case-insensitive, or null. */
  async findByUsername(db: Db, username: string): Promise<User | null> {
    const row = await userSelect(db).whereRaw('lower(users.username) = lower(?)', [username]).first();
    return row ? toUser(row) : null;
  },

  /** A user by username or primary e-mail, case-insensitive (sign-in), or null. */
  async findByLogin(db: Db, login: string): Promise<User | null> {
    const row = await userSelect(db)
      .whereRaw('lower(users.username) = lower(?)', [login])
      .orWhereRaw('lower(users.email) = lower(?)', [login])
      .orderBy('users.id')
      .first();
    return row ? toUser(row) : null;
  },

  /** Whether the username is taken by a user (case-insensitive), ignoring user `exceptId`. */
  async usernameTaken(db: Db, username: string, exceptId?: number): Promise<boolean> {
    const q = db('users').whereRaw('lower(username) = lower(?)', [username]);
    if (exceptId) q.whereNot('id', exceptId);
    return !!(await q.first('id'));
  },

  /** Inserts a user and returns its id. */
  async insert(db: Db, row: NewUserRow): Promise<number> {
    const [r] = await db('users').insert(row).returning('id');
    return (r as { id: number }).id;
  },

  /** Updates columns of a user. */
  async update(db: Db, id: number, patch: Partial<UserRow>): Promise<void> {
    await db('users').where({ id }).update({ ...patch, updated_at: db.fn.now() });
  },
};
