import { Client, EqualityFilter, OrFilter } from 'ldapts';
import type { LdapProvider } from './ldap-provider';

const first = (v: unknown): string | undefined => {
  const x = Array.isArray(v) ? v[0] : v;
  return x === undefined ? undefined : String(x);
};
const all = (v: unknown): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

/**
 * A bound connection to one provider's directory answering what the group sync asks, in login
 * names (the `uid` attribute): who is in a group, who matches a filter, who is a directory user.
 */
export class LdapDirectory {
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
   * The login names of the members of the group entry with `cn` under the group base: DNs of
   * `member`/`uniqueMember` (groupOfNames, groupOfUniqueNames) read for their uid, else the
   * `memberUid` values (posixGroup). A missing group has no members.
   */
  async groupMemberUids(cn: string): Promise<string[]> {
    const filter = new EqualityFilter({ attribute: 'cn', value: cn });
    const { searchEntries } = await this.client.search(this.provider.groupBase, { scope: 'sub', filter, attributes: ['cn', 'member', 'uniqueMember', 'memberUid'] });
    const group = searchEntries[0];
    if (!group) return [];
    const dns = all(group.member).length ? all(group.member) : all(group.uniqueMember);
    if (!dns.length) return all(group.memberUid);
    const uids = await Promise.all(dns.map((dn) => this.uidOf(dn)));
    return uids.filter((u): u is string => !!u);
  }

  /** The login names of the users under the base matching an LDAP filter. */
  async filterUids(filter: string): Promise<string[]> {
    const { searchEntries } = await this.client.search(this.provider.base, { scope: 'sub', filter, attributes: [this.provider.uidAttribute] });
    return searchEntries.map((e) => first(e[this.provider.uidAttribute])).filter((u): u is string => !!u);
  }

  /** Which of `uids` are directory users under the base (lower-cased). */
  async existingUids(uids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < uids.length; i += 100) {
      const filters = uids.slice(i, i + 100).map((value) => new EqualityFilter({ attribute: this.provider.uidAttribute, value }));
      const { searchEntries } = await this.client.search(this.provider.base, { scope: 'sub', filter: new OrFilter({ filters }), attributes: [this.provider.uidAttribute] });
      for (const e of searchEntries) for (const u of all(e[this.provider.uidAttribute])) found.add(u.toLowerCase());
    }
    return found;
  }

  /** The login name of the entry `dn`; a `uid=<x>` RDN answers without a lookup when the entry is not readable. */
  private async uidOf(dn: string): Promise<string | undefined> {
    const rdn = new RegExp(`^${this.provider.uidAttribute}=([^,+]+)`, 'i').exec(dn)?.[1];
    try {
      const { searchEntries } = await this.client.search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: [this.provider.uidAttribute] });
      return first(searchEntries[0]?.[this.provider.uidAttribute]) ?? rdn;
    } catch {
      return rdn;
    }
  }
}
