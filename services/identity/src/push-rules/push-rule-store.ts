import type { Db } from '../sql';
import { PushRule, PushRuleAttributes, PushRuleRow, toPushRule } from './push-rule';

/** Reads and writes `group_push_rules`. */
export const pushRuleStore = {
  /** The push rule of a group, or null. */
  async findForGroup(db: Db, groupId: number): Promise<PushRule | null> {
    const row = (await db('group_push_rules').where('namespace_id', groupId).first()) as PushRuleRow | undefined;
    return row ? toPushRule(row) : null;
  },

  /** Inserts a group's push rule. */
  async insert(db: Db, groupId: number, attrs: PushRuleAttributes): Promise<PushRule> {
    const [row] = (await db('group_push_rules').insert({ ...attrs, namespace_id: groupId }).returning('*')) as PushRuleRow[];
    return toPushRule(row);
  },

  /** Changes the given attributes of a push rule. */
  async update(db: Db, id: number, attrs: PushRuleAttributes): Promise<PushRule> {
    const [row] = (await db('group_push_rules').where({ id }).update({ ...attrs, updated_at: db.fn.now() }).returning('*')) as PushRuleRow[];
    return toPushRule(row);
  },

  /** Deletes a push rule. */
  async delete(db: Db, id: number): Promise<void> {
    await db('group_push_rules').where({ id }).delete();
  },
};
