import type { Knex } from 'knex';
import type { Db } from '../sql';
import { SshCertificate, SshCertificateRow, toSshCertificate } from './ssh-certificate';

/** Reads and writes `group_ssh_certificates`. */
export const sshCertificateStore = {
  /** A group's certificates by id (the list query, not yet paginated). */
  query(db: Db, groupId: number): Knex.QueryBuilder {
    return db('group_ssh_certificates').where('namespace_id', groupId).orderBy('id');
  },

  /** One certificate of a group, or null. */
  async find(db: Db, groupId: number, id: number): Promise<SshCertificate | null> {
    const row = (await db('group_ssh_certificates').where({ namespace_id: groupId, id }).first()) as SshCertificateRow | undefined;
    return row ? toSshCertificate(row) : null;
  },

  /** Inserts a certificate. */
  async insert(db: Db, row: Pick<SshCertificateRow, 'namespace_id' | 'title' | 'key' | 'fingerprint'>): Promise<SshCertificate> {
    const [r] = (await db('group_ssh_certificates').insert(row).returning('*')) as SshCertificateRow[];
    return toSshCertificate(r);
  },

  /** Deletes a certificate. */
  async delete(db: Db, id: number): Promise<void> {
    await db('group_ssh_certificates').where({ id }).delete();
  },
};
