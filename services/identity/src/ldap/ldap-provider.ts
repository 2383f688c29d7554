import type { IdentityConfig } from '../config';

/** The one LDAP provider name Anvil configures (GitLab's default `ldapmain`). */
export const LDAP_MAIN = 'ldapmain';

/** An LDAP server the group sync reads, as configured by environment. */
export interface LdapProvider {
  name: string;
  url: string;
  bindDn?: string;
  bindPassword?: string;
  /** Where users are searched and filter links applied. */
  base: string;
  /** Where the groups of `cn` links are searched. */
  groupBase: string;
  /** The attribute holding the login name that matches an Anvil username. */
  uidAttribute: string;
}

/** The configured providers: `ldapmain` when `LDAP_URL` is set, none otherwise (LDAP disabled). */
export function ldapProviders(config: Partial<IdentityConfig>): LdapProvider[] {
  if (!config.LDAP_URL) return [];
  const base = config.LDAP_BASE ?? '';
  return [
    {
      name: LDAP_MAIN,
      url: config.LDAP_URL,
      bindDn: config.LDAP_BIND_DN,
      bindPassword: config.LDAP_BIND_PASSWORD,
      base,
      groupBase: config.LDAP_GROUP_BASE ?? base,
      uidAttribute: config.LDAP_UID ?? 'uid',
    },
  ];
}
