import type { Db } from '../sql';

/** An administrator's key/value note on a user (GitLab's `CustomAttribute` entity). */
export interface CustomAttribute {
  key: string;
  value: string;
}

/** Reads and writes `user_custom_attributes`. */
export const customAttributeStore = {
  /** A user's attributes, by key. */
  async forUser(db: Db, userId: number): Promise<CustomAttribute[]> {
    return (await db('user_custom_attributes').where('user_id', userId).orderBy('key').select('key', 'value')) as CustomAttribute[];
  },

  /** The attributes of each of `userIds`; users without any map to []. */
  async forUsers(db: Db, userIds: number[]): Promise<Map<number, CustomAttribute[]>> {
    const out = new Map<number, CustomAttribute[]>(userIds.map((id) => [id, []]));
    if (!userIds.length) return out;
    const rows = (await db('user_custom_attributes').whereIn('user_id', userIds).orderBy(['user_id', 'key'])) as (CustomAttribute & { user_id: number })[];
    for (const r of rows) out.get(r.user_id)?.push({ key: r.key, value: r.value });
    return out;
  },

  /** One attribute, or null. */
  async find(db: Db, userId: number, key: string): Promise<CustomAttribute | null> {
    const row = (await db('user_custom_attributes').where({ user_id: userId, key }).first('key', 'value')) as CustomAttribute | undefined;
    return row ?? null;
  },

  /** Sets (adds or replaces) one attribute and returns it. */
  async set(db: Db, userId: number, key: string, value: string): Promise<CustomAttribute> {
    await db('user_custom_attributes')
      .insert({ user_id: userId, key, value })
      .onConflict(['user_id', 'key'])
      .merge({ value, updated_at: db.fn.now() });
    return { key, value };
  },

  /** Deletes one attribute; false when there was none. */
  async delete(db: Db, userId: number, key: string): Promise<boolean> {
    return (await db('user_custom_attributes').where({ user_id: userId, key }).delete()) > 0;
  },
};
