import type { Knex } from 'knex';
import type { Db } from '../sql';
import { SamlGroupLink, SamlGroupLinkRow, toSamlGroupLink } from './saml-group-link';

/** Reads and writes `saml_group_links`. */
export const samlGroupLinkStore = {
  /** A group's links, oldest first. */
  query(db: Db, groupId: number): Knex.QueryBuilder {
    return db('saml_group_links').where('namespace_id', groupId).orderBy('id');
  },

  /** A group's links, oldest first. */
  async list(db: Db, groupId: number): Promise<SamlGroupLink[]> {
    return ((await this.query(db, groupId)) as SamlGroupLinkRow[]).map(toSamlGroupLink);
  },

  /** The links of a group with this SAML group name, only those of `provider` when it is given (null: without provider). */
  async findByName(db: Db, groupId: number, name: string, provider?: string | null): Promise<SamlGroupLink[]> {
    const q = this.query(db, groupId).where('saml_group_name', name);
    if (provider !== undefined) (provider === null ? q.whereNull('provider') : q.where('provider', provider));
    return ((await q) as SamlGroupLinkRow[]).map(toSamlGroupLink);
  },

  /** Inserts a link. */
  async insert(db: Db, row: Omit<SamlGroupLinkRow, 'id' | 'created_at'>): Promise<SamlGroupLink> {
    const [r] = (await db('saml_group_links').insert(row).returning('*')) as SamlGroupLinkRow[];
    return toSamlGroupLink(r);
  },

  /** Deletes a link. */
  async delete(db: Db, id: number): Promise<void> {
    await db('saml_group_links').where({ id }).delete();
  },
};
