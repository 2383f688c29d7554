import type { LdapGroupLink } from '../ldap/ldap-group-link';

/**
 * `LdapGroupLink` as GitLab presents it with the filter licence and without custom roles:
 * `cn`, `group_access`, `provider`, `filter` (`member_role_id` is not exposed).
 */
export function toLdapGroupLinkEntity(l: LdapGroupLink) {
  return { cn: l.cn, group_access: l.groupAccess, provider: l.provider, filter: l.filter };
}
