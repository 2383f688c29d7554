import { Client, EqualityFilter, OrFilter } from 'ldapts';
import { normalizeDn, parseDn, singleRdnValue } from './dn';
import type { LdapProvider } from './ldap-provider';

const all = (v: unknown): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

/**
 * A bound connection to one provider's directory answering what the group sync asks, in
 * normalised DNs (`normalizeDn`), as GitLab's sync proxy answers: who is in a group, who matches
 * a filter.
 */
export class LdapDirectory {
  private readonly dnByUid = new Map<string, string | null>();

  private constructor(
    private readonly client: Client,
    private readonly provider: LdapProvider,
  ) {}

  /** Connects and binds (anonymously without a bind DN). */
  static async open(provider: LdapProvider): Promise<LdapDirectory> {
    const client = new Client({ url: provider.url, timeout: 10_000, connectTimeout: 5_000 });
    if (provider.bindDn) await client.bind(provider.bindDn, provider.bindPassword ?? '');
    return new LdapDirectory(client, provider);
  }

  /** Unbinds. */
  async close(): Promise<void> {
    await this.client.unbind().catch(() => undefined);
  }

  /**
   * The member DNs of the group entry with `cn` under the group base: the first of `member`,
   * `uniqueMember`, `memberOf` present, plus `subMember`; without any, the `memberUid` values
   * (posixGroup) looked up as users. A missing group has no members.
   */
  async groupMemberDns(cn: string): Promise<string[]> {
    const filter = new EqualityFilter({ attribute: 'cn', value: cn });
    const attributes = ['cn', 'member', 'uniqueMember', 'memberOf', 'subMember', 'memberUid'];
    const { searchEntries } = await this.client.search(this.provider.groupBase, { scope: 'sub', filter, attributes });
    const group = searchEntries[0];
    if (!group) return [];
    const listed = [group.member, group.uniqueMember, group.memberOf].map(all).find((dns) => dns.length) ?? [];
    const dns = [...listed, ...all(group.subMember)];
    if (!dns.length) return this.dnsOfUids(all(group.memberUid));
    return this.fullDns(dns);
  }

  /** The DNs of the entries under the base matching an LDAP filter. */
  async filterDns(filter: string): Promise<string[]> {
    const { searchEntries } = await this.client.search(this.provider.base, { scope: 'sub', filter, attributes: ['1.1'] });
    return searchEntries.map((e) => normalizeDn(e.dn)).filter((d): d is string => !!d);
  }

  /**
   * GitLab's `ensure_full_dns!`: a DN of several RDNs is kept (normalised); a lone
   * `<uid attribute>=<x>` is looked up as a user; any other lone RDN is kept; a non-DN is dropped.
   */
  private async fullDns(dns: string[]): Promise<string[]> {
    const out: string[] = [];
    const uids: string[] = [];
    for (const dn of dns) {
      const rdns = parseDn(dn);
      if (!rdns) continue;
      const uid = rdns.length === 1 ? singleRdnValue(dn, this.provider.uidAttribute) : null;
      if (uid !== null) uids.push(uid);
      else out.push(normalizeDn(dn) as string);
    }
    return [...out, ...(await this.dnsOfUids(uids))];
  }

  /** The DNs of the users under the base whose uid attribute is one of `uids`, 100 per search. */
  private async dnsOfUids(uids: string[]): Promise<string[]> {
    const missing = [...new Set(uids.map((u) => u.toLowerCase()))].filter((u) => !this.dnByUid.has(u));
    const attr = this.provider.uidAttribute;
    for (let i = 0; i < missing.length; i += 100) {
      const filters = missing.slice(i, i + 100).map((value) => new EqualityFilter({ attribute: attr, value }));
      const { searchEntries } = await this.client.search(this.provider.base, { scope: 'sub', filter: new OrFilter({ filters }), attributes: [attr] });
      for (const u of missing.slice(i, i + 100)) this.dnByUid.set(u, null);
      for (const e of searchEntries) for (const u of all(e[attr])) this.dnByUid.set(u.toLowerCase(), normalizeDn(e.dn));
    }
    return uids.map((u) => this.dnByUid.get(u.toLowerCase())).filter((d): d is string => !!d);
  }
}
