import type { Knex } from 'knex';
import type { Db } from '../sql';
import { EventFlag, Hook, HookRow, toHook } from './hook';

/** Columns a hook write may set (snake_case, as stored). */
export type HookWrite = Partial<Omit<HookRow, 'id' | 'created_at' | 'url_variables' | 'custom_headers'>> & {
  url_variables?: Record<string, string>;
  custom_headers?: Record<string, string>;
};

function serialise(w: HookWrite): Record<string, unknown> {
  const out: Record<string, unknown> = { ...w };
  if (w.url_variables) out.url_variables = JSON.stringify(w.url_variables);
  if (w.custom_headers) out.custom_headers = JSON.stringify(w.custom_headers);
  return out;
}

/** Reads and writes `web_hooks`. */
export const hookStore = {
  /** The hooks of one group, oldest first (a query, for pagination). */
  listQuery(db: Db, groupId: number): Knex.QueryBuilder {
    return db('web_hooks').where({ group_id: groupId }).orderBy('id');
  },

  /** One hook of a group, or null (a hook of another group is not found). */
  async find(db: Db, groupId: number, id: number): Promise<Hook | null> {
    const row = (await db('web_hooks').where({ group_id: groupId, id }).first()) as HookRow | undefined;
    return row ? toHook(row) : null;
  },

  /** One hook by id, whatever its group. */
  async findById(db: Db, id: number): Promise<Hook | null> {
    const row = (await db('web_hooks').where({ id }).first()) as HookRow | undefined;
    return row ? toHook(row) : null;
  },

  /** One hook by id, locked for the rest of the transaction (delivery outcome updates). */
  async lock(trx: Db, id: number): Promise<Hook | null> {
    const row = (await trx('web_hooks').where({ id }).forUpdate().first()) as HookRow | undefined;
    return row ? toHook(row) : null;
  },

  /** How many hooks a group has (the `group_hooks` plan limit). */
  async count(db: Db, groupId: number): Promise<number> {
    const row = (await db('web_hooks').where({ group_id: groupId }).count({ n: '*' }).first()) as { n: string };
    return Number(row.n);
  },

  /** Inserts a hook and returns it. */
  async insert(db: Db, w: HookWrite & { group_id: number; url: string }): Promise<Hook> {
    const [row] = (await db('web_hooks').insert(serialise(w)).returning('*')) as HookRow[];
    return toHook(row);
  },

  /** Changes a hook and returns it. */
  async update(db: Db, id: number, w: HookWrite): Promise<Hook> {
    const [row] = (await db('web_hooks').where({ id }).update({ ...serialise(w), updated_at: db.fn.now() }).returning('*')) as HookRow[];
    return toHook(row);
  },

  /** Deletes a hook (its logs and pending deliveries go with it). */
  async delete(db: Db, id: number): Promise<void> {
    await db('web_hooks').where({ id }).delete();
  },

  /** The hooks of the groups `groupIds` whose switch `flag` is on (GitLab's `hooks_for(scope)`, executability checked at delivery). */
  async withFlag(db: Db, groupIds: number[], flag: EventFlag): Promise<Hook[]> {
    if (!groupIds.length) return [];
    const rows = (await db('web_hooks').whereIn('group_id', groupIds).where(flag, true).orderBy('id')) as HookRow[];
    return rows.map(toHook);
  },
};
