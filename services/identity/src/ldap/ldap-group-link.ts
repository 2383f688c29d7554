import type { Db } from '../sql';

/** A row of `ldap_group_links`. */
export interface LdapGroupLinkRow {
  id: number;
  group_id: number;
  cn: string | null;
  filter: string | null;
  provider: string;
  group_access: number;
  member_role_id: number | null;
}

/** A directory group (`cn`) or user filter granting `groupAccess` in a group, for one LDAP provider. */
export interface LdapGroupLink {
  id: number;
  groupId: number;
  cn: string | null;
  filter: string | null;
  provider: string;
  groupAccess: number;
  memberRoleId: number | null;
}

/** Maps a row to a link. */
export function toLdapGroupLink(r: LdapGroupLinkRow): LdapGroupLink {
  return { id: r.id, groupId: r.group_id, cn: r.cn, filter: r.filter, provider: r.provider, groupAccess: r.group_access, memberRoleId: r.member_role_id };
}

/** Which link a delete names: by `cn` or `filter`, optionally only for one provider. */
export interface LinkSelector {
  cn?: string;
  filter?: string;
  provider?: string;
}

/** Reads and writes `ldap_group_links`. */
export const ldapGroupLinkStore = {
  /** The links of a group, oldest first (the first one is GitLab's `ldap_cn`/`ldap_access`). */
  async forGroup(db: Db, groupId: number, provider?: string): Promise<LdapGroupLink[]> {
    const q = db('ldap_group_links').where({ group_id: groupId }).orderBy('id');
    if (provider) q.where({ provider });
    return ((await q) as LdapGroupLinkRow[]).map(toLdapGroupLink);
  },

  /** Inserts a link and returns it. */
  async insert(db: Db, row: Omit<LdapGroupLinkRow, 'id'>): Promise<LdapGroupLink> {
    const [r] = (await db('ldap_group_links').insert(row).returning('*')) as LdapGroupLinkRow[];
    return toLdapGroupLink(r);
  },

  /** Deletes the first (oldest) link matching `sel`; false when none does. */
  async deleteFirst(db: Db, groupId: number, sel: LinkSelector): Promise<boolean> {
    const q = db('ldap_group_links').where({ group_id: groupId }).orderBy('id').first('id');
    if (sel.cn !== undefined) q.where({ cn: sel.cn });
    if (sel.filter !== undefined) q.where({ filter: sel.filter });
    if (sel.provider !== undefined) q.where({ provider: sel.provider });
    const row = (await q) as { id: number } | undefined;
    if (!row) return false;
    await db('ldap_group_links').where({ id: row.id }).delete();
    return true;
  },
};
