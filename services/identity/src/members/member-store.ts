import type { Knex } from 'knex';
import { ACTIVE_MEMBER, Db } from '../sql';
import { Member, MemberRow, SourceType, toMember } from './member';

const MEMBER_COLUMNS = 'id, source_type, source_id, user_id, access_level, expires_at, created_by_id, created_at, updated_at';

/**
 * `members` plus, as group memberships of the shared group, the memberships of every group it is
 * shared with (and of that group's ancestors) at the lower of the two levels and the earlier expiry:
 * what GitLab's "all members" lists add as members shared from other groups.
 */
const MEMBERS_WITH_SHARES = `(SELECT ${MEMBER_COLUMNS} FROM members
  UNION ALL
  SELECT im.id, 'Namespace', l.shared_group_id, im.user_id, LEAST(im.access_level, l.group_access), LEAST(im.expires_at, l.expires_at), im.created_by_id, im.created_at, im.updated_at
  FROM group_group_links l JOIN namespaces ig ON ig.id = l.shared_with_group_id JOIN members im ON im.source_type = 'Namespace' AND im.source_id = ANY(ig.traversal_ids))`;

/** Members (alias `m`) joined with their user and creator; `withShares` adds members through group shares. */
export function memberSelect(db: Db, withShares = false): Knex.QueryBuilder {
  const from: Knex.QueryBuilder = withShares ? db.from(db.raw(`${MEMBERS_WITH_SHARES} AS m`)) : db('members as m');
  return from
    .join('users as u', 'u.id', 'm.user_id')
    .leftJoin('users as c', 'c.id', 'm.created_by_id')
    .select('m.*', 'u.username as u_username', 'u.name as u_name', 'u.state as u_state', 'c.username as c_username', 'c.name as c_name', 'c.state as c_state');
}

/** A source and its ancestors whose members count (a project: itself and its groups). */
export interface MemberSources {
  projectId?: number;
  namespaceIds: number[];
}

/** Reads and writes `members`. */
export const memberStore = {
  /** Direct, unexpired members of one source (ordered by id; not yet paginated). */
  direct(db: Db, sourceType: SourceType, sourceId: number): Knex.QueryBuilder {
    return memberSelect(db).where({ 'm.source_type': sourceType, 'm.source_id': sourceId }).whereRaw(ACTIVE_MEMBER).orderBy('m.id');
  },

  /**
   * Direct, inherited and shared (through group shares) unexpired members: one row per user, the
   * highest level wins (a direct membership wins a tie). Ordered by membership id.
   */
  inherited(db: Db, sources: MemberSources): Knex.QueryBuilder {
    const inner = memberSelect(db, sources.namespaceIds.length > 0)
      .where((q) => {
        if (sources.projectId) q.orWhere((w) => w.where({ 'm.source_type': 'Project', 'm.source_id': sources.projectId }));
        if (sources.namespaceIds.length) q.orWhere((w) => w.where('m.source_type', 'Namespace').whereIn('m.source_id', sources.namespaceIds));
      })
      .whereRaw(ACTIVE_MEMBER)
      .distinctOn('m.user_id')
      .orderBy([{ column: 'm.user_id' }, { column: 'm.access_level', order: 'desc' }, { column: 'm.source_type', order: 'desc' }]);
    return db.queryBuilder().select('*').from(inner.as('x')).orderBy('x.id');
  },

  /** One direct membership (expired ones included), or null. */
  async find(db: Db, sourceType: SourceType, sourceId: number, userId: number): Promise<Member | null> {
    const row = (await memberSelect(db).where({ 'm.source_type': sourceType, 'm.source_id': sourceId, 'm.user_id': userId }).first()) as MemberRow | undefined;
    return row ? toMember(row) : null;
  },

  /** One membership by id, or null. */
  async findById(db: Db, id: number): Promise<Member | null> {
    const row = (await memberSelect(db).where('m.id', id).first()) as MemberRow | undefined;
    return row ? toMember(row) : null;
  },

  /** Inserts a membership and returns its id. */
  async insert(db: Db, row: { source_type: SourceType; source_id: number; user_id: number; access_level: number; expires_at: string | null; created_by_id: number | null }): Promise<number> {
    const [r] = await db('members').insert(row).returning('id');
    return (r as { id: number }).id;
  },

  /** Updates the level and expiry of a membership. */
  async update(db: Db, id: number, patch: { access_level?: number; expires_at?: string | null }): Promise<void> {
    await db('members').where({ id }).update({ ...patch, updated_at: db.fn.now() });
  },

  /** Deletes one membership. */
  async delete(db: Db, id: number): Promise<void> {
    await db('members').where({ id }).delete();
  },

  /** Number of unexpired Owners of a group. */
  async ownerCount(db: Db, namespaceId: number): Promise<number> {
    const r = (await db('members as m').where({ 'm.source_type': 'Namespace', 'm.source_id': namespaceId, 'm.access_level': 50 }).whereRaw(ACTIVE_MEMBER).count({ n: '*' }).first()) as { n: string };
    return Number(r.n);
  },

  /** Deletes every membership of the given sources and returns the deleted members (for events). */
  async deleteForSources(db: Db, sourceType: SourceType, sourceIds: number[]): Promise<Member[]> {
    if (!sourceIds.length) return [];
    const rows = (await memberSelect(db).where('m.source_type', sourceType).whereIn('m.source_id', sourceIds)) as MemberRow[];
    await db('members').where('source_type', sourceType).whereIn('source_id', sourceIds).delete();
    return rows.map(toMember);
  },
};
