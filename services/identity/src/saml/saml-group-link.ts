/** A row of `saml_group_links`. */
export interface SamlGroupLinkRow {
  id: number;
  namespace_id: number;
  saml_group_name: string;
  access_level: number;
  member_role_id: number | null;
  provider: string | null;
  created_at: Date;
}

/** A SAML group mapped to a role in a group. */
export interface SamlGroupLink {
  id: number;
  groupId: number;
  name: string;
  accessLevel: number;
  memberRoleId: number | null;
  provider: string | null;
}

/** Maps a row to a SamlGroupLink. */
export function toSamlGroupLink(row: SamlGroupLinkRow): SamlGroupLink {
  return { id: row.id, groupId: row.namespace_id, name: row.saml_group_name, accessLevel: row.access_level, memberRoleId: row.member_role_id, provider: row.provider };
}
