import { ACTIVE_MEMBER, Db } from '../sql';
import { normalizeDn } from './dn';

/** The groups' LDAP sync state (`namespaces.ldap_sync_*`), moved as GitLab's state machine moves it. */
export const ldapSyncStore = {
  /** ready|failed → pending; false when the group is already pending or started. */
  async markPending(db: Db, groupId: number): Promise<boolean> {
    const n = await db('namespaces').where({ id: groupId }).whereIn('ldap_sync_status', ['ready', 'failed']).update({ ldap_sync_status: 'pending' });
    return n > 0;
  },

  /** ready|pending|failed → started (`last_sync_at` set only from ready); false when already started. */
  async markStarted(db: Db, groupId: number): Promise<boolean> {
    const n = await db('namespaces')
      .where({ id: groupId })
      .whereIn('ldap_sync_status', ['ready', 'pending', 'failed'])
      .update({ ldap_sync_status: 'started', ldap_sync_last_sync_at: db.raw("CASE WHEN ldap_sync_status = 'ready' THEN now() ELSE ldap_sync_last_sync_at END") });
    return n > 0;
  },

  /** started → ready: the error cleared, both update times set. */
  async markFinished(db: Db, groupId: number): Promise<void> {
    await db('namespaces').where({ id: groupId, ldap_sync_status: 'started' }).update({ ldap_sync_status: 'ready', ldap_sync_error: null, ldap_sync_last_update_at: db.fn.now(), ldap_sync_last_successful_update_at: db.fn.now() });
  },

  /** started → failed with the error. */
  async markFailed(db: Db, groupId: number, error: string): Promise<void> {
    await db('namespaces').where({ id: groupId, ldap_sync_status: 'started' }).update({ ldap_sync_status: 'failed', ldap_sync_error: error, ldap_sync_last_update_at: db.fn.now() });
  },

  /**
   * GitLab's stuck-sync check, for a group found `started` when its sync should start: without a
   * `last_sync_at` it is failed as inconsistent, after more than an hour as too long; a younger
   * sync is left running.
   */
  async failIfStuck(db: Db, groupId: number): Promise<void> {
    const started = () => db('namespaces').where({ id: groupId, ldap_sync_status: 'started' });
    await started().whereNull('ldap_sync_last_sync_at').update({ ldap_sync_status: 'failed', ldap_sync_error: 'The sync failed because the group is an inconsistent state', ldap_sync_last_update_at: db.fn.now() });
    await started().where('ldap_sync_last_sync_at', '<', db.raw("now() - interval '1 hour'")).update({ ldap_sync_status: 'failed', ldap_sync_error: 'The sync took too long to complete.', ldap_sync_last_update_at: db.fn.now() });
  },

  /** The group's traversal ids (itself last), or null when it is gone. */
  async traversalIds(db: Db, groupId: number): Promise<number[] | null> {
    const row = (await db('namespaces').where({ id: groupId, kind: 'group' }).first('traversal_ids')) as { traversal_ids: number[] } | undefined;
    return row ? row.traversal_ids : null;
  },

  /** Each of `userIds` holding a non-blank identity at `provider` → its `extern_uid` as a normalised DN. */
  async dnsOfUsers(db: Db, provider: string, userIds: number[]): Promise<Map<number, string>> {
    if (!userIds.length) return new Map();
    const rows = (await db('identities').where({ provider }).whereIn('user_id', userIds).whereRaw("btrim(extern_uid) <> ''").select('user_id', 'extern_uid')) as { user_id: number; extern_uid: string }[];
    return new Map(rows.map((r) => [r.user_id, normalizeDn(r.extern_uid) ?? r.extern_uid.toLowerCase()]));
  },

  /** The users whose identity at `provider` has one of the normalised `dns` as `extern_uid`, case-insensitively. */
  async usersByDn(db: Db, provider: string, dns: string[]): Promise<{ id: number; dn: string }[]> {
    if (!dns.length) return [];
    const rows = (await db('identities').where({ provider }).whereRaw('lower(extern_uid) = ANY(?)', [dns]).select('user_id', 'extern_uid')) as { user_id: number; extern_uid: string }[];
    return rows.map((r) => ({ id: r.user_id, dn: normalizeDn(r.extern_uid) ?? r.extern_uid.toLowerCase() }));
  },

  /** Each user's highest unexpired level in the ancestors `ancestorIds` (the inherited floor of a subgroup). */
  async ancestorLevels(db: Db, ancestorIds: number[], userIds: number[]): Promise<Map<number, number>> {
    if (!ancestorIds.length || !userIds.length) return new Map();
    const rows = (await db('members as m')
      .where('m.source_type', 'Namespace')
      .whereIn('m.source_id', ancestorIds)
      .whereIn('m.user_id', userIds)
      .whereRaw(ACTIVE_MEMBER)
      .groupBy('m.user_id')
      .select('m.user_id', db.raw('max(m.access_level) AS level'))) as { user_id: number; level: number }[];
    return new Map(rows.map((r) => [r.user_id, Number(r.level)]));
  },
};
