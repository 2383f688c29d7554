import { ACTIVE_MEMBER, Db } from '../sql';

/** A user's highest unexpired membership level anywhere (GitLab's `highest_role`), 0 for none. */
export async function highestRole(db: Db, userId: number): Promise<number> {
  const row = (await db('members as m').where('m.user_id', userId).whereRaw(ACTIVE_MEMBER).max({ level: 'm.access_level' }).first()) as { level: number | null } | undefined;
  return Number(row?.level ?? 0);
}
